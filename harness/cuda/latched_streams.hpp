#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "harness/cuda/copy_timing.hpp"
#include "harness/cuda/event.hpp"
#include "harness/cuda/latch.hpp"
#include "harness/cuda/stream.hpp"

namespace h2d {

// K streams of one device that start together and are timed as one: the latch blocks stream 0,
// an event recorded on stream 0 right after the latch kernel is the start, and every other stream
// waits on that event, so nothing queued on any stream runs before the host releases the latch.
// The streams then join back into stream 0 (an event each), where the stop is recorded. The GPU
// time from start to stop covers the slowest stream; no enqueue cost is included.
//
// As with StreamLatch: queue only work that does not make the host wait for a stream (async copies
// from page-locked memory, kernels, events). A pageable copy behind the latch deadlocks until the
// latch times out.
class LatchedStreams {
 public:
  LatchedStreams(int device, std::size_t count, Latching latching);

  std::size_t size() const { return streams_.size(); }
  const Stream& operator[](std::size_t index) const { return streams_.at(index); }
  int device() const { return device_; }

  // Holds every stream, calls enqueue() (which queues work on any of them), joins, releases and
  // waits. `seconds` is the GPU time of the whole window, `host_block_seconds` what enqueue() took.
  // Throws if the latch timed out (the window would have measured the enqueue).
  CopyTiming time(const std::function<void()>& enqueue);

 private:
  int device_;
  std::vector<Stream> streams_;
  StreamLatch latch_;
  Event start_;
  Event stop_;
  std::vector<Event> joined_;  // one per stream after the first
};

}  // namespace h2d
