#include "harness/cuda/stream_work_timing.hpp"

#include <optional>
#include <stdexcept>

#include "harness/core/stopwatch.hpp"

namespace h2d {

CopyTiming time_stream_work(const std::function<void()>& enqueue, StreamLatch* latch,
                            const Stream& stream, const Event& start, const Event& stop) {
  CopyTiming timing;
  {
    std::optional<LatchHold> hold;
    if (latch != nullptr) {
      hold.emplace(latch->block(stream));
    }
    start.record(stream.get());
    Stopwatch watch;
    enqueue();
    timing.host_block_seconds = watch.seconds();
    stop.record(stream.get());
  }  // the hold's destructor releases the stream, also when enqueue threw
  stream.synchronize();
  if (latch != nullptr && latch->timed_out()) {
    throw std::runtime_error(
        "the stream latch timed out before the host released it; the measurement is invalid");
  }
  timing.seconds = elapsed_ms(start, stop) / 1e3;
  return timing;
}

}  // namespace h2d
