#include "harness/cuda/copy_timing.hpp"

#include <algorithm>

#include "harness/core/stopwatch.hpp"
#include "harness/cuda/cuda_error.hpp"
#include "harness/cuda/stream_work_timing.hpp"
#include "harness/trace/nvtx.hpp"
#include "kernels/sm_copy.cuh"

namespace h2d {

std::string_view to_string(Direction direction) {
  return direction == Direction::h2d ? "h2d" : "d2h";
}

cudaMemcpyKind memcpy_kind(Direction direction) {
  return direction == Direction::h2d ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
}

void enqueue_copies(const CopyJob& job, const Stream& stream) {
  for (int i = 0; i < job.copies; ++i) {
    H2D_CUDA_CHECK(cudaMemcpyAsync(job.destination, job.source, job.bytes,
                                   memcpy_kind(job.direction), stream.get()));
  }
}

CopyTiming time_latched_async(const CopyJob& job, StreamLatch& latch, const Stream& stream,
                              const Event& start, const Event& stop) {
  NvtxRange range(NvtxCategory::copy, "latched async copies", job.bytes * job.copies);
  return time_stream_work([&] { enqueue_copies(job, stream); }, &latch, stream, start, stop);
}

CopyTiming time_latched_sm_copy(const CopyJob& job, unsigned blocks, StreamLatch& latch,
                                const Stream& stream, const Event& start, const Event& stop) {
  NvtxRange range(NvtxCategory::copy, "latched SM copies", job.bytes * job.copies);
  return time_stream_work(
      [&] {
        for (int i = 0; i < job.copies; ++i) {
          H2D_CUDA_CHECK(kernels::launch_sm_copy(job.destination, job.source, job.bytes, blocks,
                                                 stream.get()));
        }
      },
      &latch, stream, start, stop);
}

CopyTiming time_unlatched_async(const CopyJob& job, const Stream& stream) {
  NvtxRange range(NvtxCategory::copy, "unlatched async copies", job.bytes * job.copies);
  CopyTiming timing;
  Stopwatch total;
  enqueue_copies(job, stream);
  timing.host_block_seconds = total.seconds();
  stream.synchronize();
  timing.seconds = total.seconds();
  return timing;
}

CopyTiming time_sync(const CopyJob& job) {
  NvtxRange range(NvtxCategory::copy, "sync copies", job.bytes * job.copies);
  Stopwatch total;
  for (int i = 0; i < job.copies; ++i) {
    H2D_CUDA_CHECK(cudaMemcpy(job.destination, job.source, job.bytes, memcpy_kind(job.direction)));
  }
  CopyTiming timing;
  timing.host_block_seconds = total.seconds();
  // From pageable memory cudaMemcpy may return once the last piece is staged, before its DMA
  // lands; the copy is done when the device is.
  H2D_CUDA_CHECK(cudaDeviceSynchronize());
  timing.seconds = total.seconds();
  return timing;
}

int copies_per_measurement(std::size_t bytes) {
  constexpr std::size_t kTargetBytes = std::size_t{32} << 20;
  constexpr std::size_t kMaxCopies = 64;  // far below the driver's queue depth
  return static_cast<int>(
      std::clamp<std::size_t>(kTargetBytes / std::max<std::size_t>(bytes, 1), 1, kMaxCopies));
}

}  // namespace h2d
