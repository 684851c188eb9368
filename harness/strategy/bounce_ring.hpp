#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

#include "harness/cuda/event.hpp"
#include "harness/cuda/host_memory.hpp"
#include "harness/cuda/stream.hpp"
#include "harness/host/ring_schedule.hpp"
#include "harness/host/ring_shape.hpp"
#include "harness/host/thread_team.hpp"

namespace h2d {

using BounceRingConfig = RingShape;

// What a ring is built to hold: the pinned bytes of all its slots together, and the most slots.
// A ring made for one shape holds exactly that shape; a tuned ring is made for the largest shape
// of its search and reshaped between trials, so its slots are pinned once.
struct RingCapacity {
  std::size_t pinned_bytes = 0;
  std::size_t depth = 0;
};

// Host-to-device copies from pageable memory through our own pinned staging, instead of the
// driver's: D pinned slots of C bytes, T host threads copy chunk i+1 into a free slot while the DMA
// engine sends chunk i from another. A slot is refilled only after the event recorded behind its
// last copy has completed (SlotTracker enforces it), so data in flight is never overwritten.
// The slots, stream and threads are made once and reused by every copy() call.
class BounceRing {
 public:
  // Pins the capacity (by default depth * chunk_bytes of `config`; charged to pinned_budget());
  // throws std::invalid_argument for a zero chunk size, depth or thread count, or a shape the
  // capacity cannot hold.
  BounceRing(int device, const BounceRingConfig& config, RingCapacity capacity = {});
  BounceRing(const BounceRing&) = delete;
  BounceRing& operator=(const BounceRing&) = delete;
  ~BounceRing();

  // Takes another shape within the capacity (new threads when their count changes; the pinned
  // slots stay); throws std::invalid_argument as the constructor does. Waits for copies in flight.
  void reshape(const BounceRingConfig& config);

  // Copies `bytes` from `source` (any host memory) to `destination` (device memory of this ring's
  // device) and returns once all of it has arrived. `before_each_copy`, when given, enqueues work
  // on the ring's stream ahead of each chunk's copy (work the copy must wait for; tests use it to
  // make the device the slow side so slot reuse is exercised).
  RingRunStats copy(void* destination, const std::byte* source, std::size_t bytes,
                    const std::function<void(cudaStream_t)>& before_each_copy = {});

  const BounceRingConfig& config() const { return config_; }
  const RingCapacity& capacity() const { return capacity_; }
  const Stream& stream() const { return stream_; }
  int device() const { return device_; }

 private:
  int device_;
  RingCapacity capacity_;
  BounceRingConfig config_;
  HostBuffer pinned_;             // every slot, back to back: slot i at i * chunk_bytes
  std::vector<Event> slot_done_;  // recorded on stream_ after each slot's latest copy
  Stream stream_;
  std::optional<ThreadTeam> team_;
};

}  // namespace h2d
