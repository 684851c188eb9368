#include "harness/cuda/latched_streams.hpp"

#include <stdexcept>

#include "harness/core/stopwatch.hpp"
#include "harness/cuda/cuda_error.hpp"
#include "harness/cuda/scoped_device.hpp"
#include "harness/trace/nvtx.hpp"

namespace h2d {

LatchedStreams::LatchedStreams(int device, std::size_t count, Latching latching)
    : device_(device), latch_(device, latching), start_(device), stop_(device) {
  if (count == 0) {
    throw std::invalid_argument("LatchedStreams needs at least one stream");
  }
  streams_.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    streams_.emplace_back(device);
  }
  joined_.reserve(count - 1);
  for (std::size_t i = 1; i < count; ++i) {
    joined_.emplace_back(device);
  }
}

CopyTiming LatchedStreams::time(const std::function<void()>& enqueue) {
  ScopedDevice on(device_);
  NvtxRange range(NvtxCategory::copy, "latched streams");
  const cudaStream_t first = streams_.front().get();
  CopyTiming timing;
  try {
    LatchHold hold = latch_.block(streams_.front());
    start_.record(first);
    for (std::size_t i = 1; i < streams_.size(); ++i) {
      H2D_CUDA_CHECK(cudaStreamWaitEvent(streams_[i].get(), start_.get(), 0));
    }
    Stopwatch enqueuing;
    enqueue();
    timing.host_block_seconds = enqueuing.seconds();
    for (std::size_t i = 1; i < streams_.size(); ++i) {
      joined_[i - 1].record(streams_[i].get());
      H2D_CUDA_CHECK(cudaStreamWaitEvent(first, joined_[i - 1].get(), 0));
    }
    stop_.record(first);
    hold.release();
  } catch (...) {
    // The hold was released while unwinding; let whatever was queued finish before the caller
    // frees the buffers it reads. Errors here cannot be reported better than the one in flight.
    for (const Stream& stream : streams_) {
      cudaStreamSynchronize(stream.get());
    }
    throw;
  }
  // Stream 0 waited for every other stream before the stop, so this waits for all of them.
  streams_.front().synchronize();
  if (latch_.timed_out()) {
    throw std::runtime_error(
        "the stream latch timed out before the host released it; the measurement is invalid");
  }
  timing.seconds = elapsed_ms(start_, stop_) / 1e3;
  return timing;
}

}  // namespace h2d
