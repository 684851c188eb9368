#include "harness/cuda/duplex_timing.hpp"

#include <cuda_runtime_api.h>

#include "harness/cuda/cuda_error.hpp"
#include "harness/cuda/stream_work_timing.hpp"
#include "harness/trace/nvtx.hpp"

namespace h2d {

CopyTiming time_duplex(const CopyJob& timed, const CopyJob& opposite, StreamLatch& latch,
                       const Stream& stream, const Stream& other, const Event& gate,
                       const Event& start, const Event& stop) {
  NvtxRange range(NvtxCategory::copy, "bidirectional copies",
                  timed.bytes * timed.copies + opposite.bytes * opposite.copies);
  const CopyTiming timing = time_stream_work(
      [&] {
        gate.record(stream.get());  // behind the latch: the opposite copies start with the timed
        H2D_CUDA_CHECK(cudaStreamWaitEvent(other.get(), gate.get(), 0));
        enqueue_copies(opposite, other);
        enqueue_copies(timed, stream);
      },
      &latch, stream, start, stop);
  other.synchronize();
  return timing;
}

}  // namespace h2d
