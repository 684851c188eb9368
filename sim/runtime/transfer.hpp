#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "sim/runtime/copy_engine.hpp"
#include "sim/runtime/copy_route.hpp"
#include "sim/runtime/runtime.hpp"
#include "sim/runtime/stream.hpp"

namespace h2d::sim {

// A copy (or memset) as stream work: it is carried over its legs at the modelled rates and its
// bytes land as the last leg carries them, never ahead of the model, the last of them at the
// modelled completion time: a host read that did not wait for it sees the old contents (or, in
// the middle of the copy, part of the new).
struct Transfer {
  CopyRoute route;
  std::uint64_t bytes = 0;
  std::vector<TransferLeg> legs;  // none: lands as soon as the stream reaches it
  // Writes bytes [begin, end) of the copy to the destination, counted in the order the copy moves
  // them (row after row).
  std::function<void(std::uint64_t begin, std::uint64_t end)> land;
  unsigned char* corrupt_byte = nullptr;  // an injected corruption flips this byte once all landed
  std::uint64_t stall_ns = 0;             // an injected stall
  ActivityType activity = ActivityType::memcpy;
  int device = 0;
  std::uint32_t stream_id = 0;
  std::uint32_t correlation_id = 0;
};

// The legs of a copy: H2D on the destination's H2D engine, D2H on the source's D2H engine, both
// through the device's shared uplinks; D2D within a device uses no engine; D2D between devices is
// one leg with peer access, else D2H then H2D through the host (Runtime API cudaMemcpyPeerAsync).
std::vector<TransferLeg> legs_of(const Runtime& runtime, const CopyRoute& route);

Work transfer_work(Transfer transfer, std::uint64_t latency_ns);

}  // namespace h2d::sim
