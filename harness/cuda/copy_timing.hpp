#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string_view>

#include "harness/cuda/event.hpp"
#include "harness/cuda/latch.hpp"
#include "harness/cuda/stream.hpp"

namespace h2d {

enum class Direction { h2d, d2h };
std::string_view to_string(Direction direction);
cudaMemcpyKind memcpy_kind(Direction direction);

// One copy, repeated `copies` times per measurement.
struct CopyJob {
  void* destination = nullptr;
  const void* source = nullptr;
  std::size_t bytes = 0;
  Direction direction = Direction::h2d;
  int copies = 1;
};

// Queues the job's copies on `stream` (cudaMemcpyAsync each).
void enqueue_copies(const CopyJob& job, const Stream& stream);

// One measurement of a CopyJob.
struct CopyTiming {
  double seconds = 0;             // time the copies took (GPU events or host clock)
  double host_block_seconds = 0;  // time the calling thread spent inside the copy calls, total
};

// Async copies from page-locked memory: latch the stream, record start, enqueue, record stop,
// release, synchronize. The GPU times the copies alone; the host times how long enqueueing held it.
// Throws if the latch timed out (the window would have measured the enqueue instead).
CopyTiming time_latched_async(const CopyJob& job, StreamLatch& latch, const Stream& stream,
                              const Event& start, const Event& stop);

// The job's copies made by the SMs (kernels/sm_copy, `blocks` blocks each) instead of a copy
// engine, latched and timed by events as time_latched_async does. The job's pointers must be
// device addresses: device memory, or host memory's mapped address (HostBuffer::device_pointer).
CopyTiming time_latched_sm_copy(const CopyJob& job, unsigned blocks, StreamLatch& latch,
                                const Stream& stream, const Event& start, const Event& stop);

// Async calls that cannot be latched (pageable memory: the driver synchronizes first and would
// deadlock behind a latch): host clock around the enqueue and the stream's completion.
CopyTiming time_unlatched_async(const CopyJob& job, const Stream& stream);

// cudaMemcpy, host clock until the device has finished (from pageable memory the call can
// return before the last staged piece has landed).
CopyTiming time_sync(const CopyJob& job);

// How many copies of `bytes` make one measurement: enough that small copies are not lost in
// event resolution, few enough that the CUDA work queue never fills behind a latch.
int copies_per_measurement(std::size_t bytes);

}  // namespace h2d
