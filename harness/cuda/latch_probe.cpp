#include "harness/cuda/latch_probe.hpp"

#include <cuda_runtime_api.h>

#include "harness/cuda/cuda_error.hpp"
#include "harness/cuda/latch.hpp"
#include "harness/cuda/scoped_device.hpp"
#include "harness/cuda/stream.hpp"

namespace h2d {

bool latch_launch_returns_early(int device, std::chrono::milliseconds timeout) {
  ScopedDevice on(device);
  const Stream stream(device);
  StreamLatch latch(device, Latching::on, timeout);
  bool spinning = false;
  {
    LatchHold hold = latch.block(stream);
    // cudaErrorNotReady: the kernel is still waiting for the release, as a latch should.
    const cudaError_t state = cudaStreamQuery(stream.get());
    spinning = state == cudaErrorNotReady;
    if (!spinning) {
      H2D_CUDA_CHECK(state);
    }
  }
  stream.synchronize();
  return spinning && !latch.timed_out();
}

}  // namespace h2d
