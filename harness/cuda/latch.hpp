#pragma once

#include <chrono>

#include "harness/core/latch_policy.hpp"
#include "harness/cuda/host_memory.hpp"
#include "harness/cuda/stream.hpp"

namespace h2d {

class StreamLatch;

// One blocked stream. The stream stays blocked until release() or destruction, so an exception
// between block() and release() can never leave a spinning kernel behind.
class LatchHold {
 public:
  explicit LatchHold(StreamLatch* latch) : latch_(latch) {}
  LatchHold(LatchHold&& other) noexcept;
  LatchHold& operator=(LatchHold&&) = delete;
  LatchHold(const LatchHold&) = delete;
  LatchHold& operator=(const LatchHold&) = delete;
  ~LatchHold();

  void release() noexcept;

 private:
  StreamLatch* latch_;
};

// Blocks a stream with a spin kernel until the host releases it: async copies queued behind it
// start together, so events around them time the copies and not the host's enqueue (the
// nvbandwidth method). The kernel gives up after `timeout` so a bug cannot hang the GPU.
//
// Never queue a copy from pageable memory behind a latch: the driver waits for the stream before
// staging a pageable copy, the host never reaches release(), and only the timeout ends it. Kernels
// behind a latch are safe because linking the latch turns on eager module loading
// (kernels/latch.cu).
//
// `latching` is the run's decision (CaseContext::latching: the startup probe, --profile). Off,
// block() queues no kernel, so whatever would have waited behind it runs as it is enqueued and
// can never hang; the families report latched=0.
class StreamLatch {
 public:
  StreamLatch(int device, Latching latching,
              std::chrono::milliseconds timeout = std::chrono::milliseconds(10000));

  // Launches the spin kernel on `stream` (nothing when latching is off). One hold at a time per
  // latch.
  LatchHold block(const Stream& stream);

  // After the stream has been synchronized: whether the kernel gave up instead of being
  // released. A timed-out window measured the enqueue, not the copies, and must be discarded.
  bool timed_out() const;

 private:
  friend class LatchHold;
  void release() noexcept;

  HostBuffer flags_;  // mapped: [0] release, [1] timed out
  Latching latching_;
  std::chrono::milliseconds timeout_;
  bool held_ = false;
};

}  // namespace h2d
