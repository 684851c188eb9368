#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <functional>
#include <vector>

#include "harness/cuda/event.hpp"
#include "harness/cuda/host_memory.hpp"
#include "harness/cuda/stream.hpp"
#include "harness/host/ring_schedule.hpp"
#include "harness/host/thread_team.hpp"

namespace h2d {

struct BounceRingConfig {
  std::size_t chunk_bytes = std::size_t{4} << 20;  // C: bytes per pinned slot
  std::size_t depth = 2;                           // D: slots; 2 or more overlap fill and copy
  std::size_t threads = 1;                         // T: host threads filling each slot
};

// Host-to-device copies from pageable memory through our own pinned staging, instead of the
// driver's: D pinned slots of C bytes, T host threads copy chunk i+1 into a free slot while the DMA
// engine sends chunk i from another. A slot is refilled only after the event recorded behind its
// last copy has completed (SlotTracker enforces it), so data in flight is never overwritten.
// The slots, stream and threads are made once and reused by every copy() call.
class BounceRing {
 public:
  // Pins depth * chunk_bytes (charged to pinned_budget()); throws std::invalid_argument for a zero
  // chunk size, depth or thread count.
  BounceRing(int device, const BounceRingConfig& config);
  BounceRing(const BounceRing&) = delete;
  BounceRing& operator=(const BounceRing&) = delete;
  ~BounceRing();

  // Copies `bytes` from `source` (any host memory) to `destination` (device memory of this ring's
  // device) and returns once all of it has arrived. `before_each_copy`, when given, enqueues work
  // on the ring's stream ahead of each chunk's copy (work the copy must wait for; tests use it to
  // make the device the slow side so slot reuse is exercised).
  RingRunStats copy(void* destination, const std::byte* source, std::size_t bytes,
                    const std::function<void(cudaStream_t)>& before_each_copy = {});

  const BounceRingConfig& config() const { return config_; }
  const Stream& stream() const { return stream_; }
  int device() const { return device_; }

 private:
  int device_;
  BounceRingConfig config_;
  std::vector<HostBuffer> slots_;
  std::vector<Event> slot_done_;  // recorded on stream_ after each slot's latest copy
  Stream stream_;
  ThreadTeam team_;
};

}  // namespace h2d
