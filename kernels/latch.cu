#include <cstdlib>

#include "kernels/device_clock.cuh"
#include "kernels/latch.cuh"
#include "kernels/launch.cuh"
#include "kernels/launch_status.cuh"

namespace h2d::kernels {
namespace {

// Lazy module loading (CUDA's default since 12.2) loads a kernel at its first launch, and loading
// can wait for the context's work to drain. The first launch of a kernel behind a held latch (the
// busy kernel of h2d/streams, the zero-copy reader, any kernel of a latched pipeline step) would
// wait for the latch, the latch for the host's release, the host for the launch: a deadlock that
// only the latch's timeout ends, failing the case. nvbench's blocking kernel hit the same
// (github.com/NVIDIA/nvbench/issues/136) and it sets the same variable. So every program that
// links the latch loads its kernels eagerly: set before main(), ahead of any CUDA call, since the
// driver reads it once when it initializes; a user's LAZY is overridden, as it would deadlock.
[[maybe_unused]] const bool eager_module_loading =
    setenv("CUDA_MODULE_LOADING", "EAGER", /*overwrite=*/1) == 0;

// CUDA_DEVICE_MAX_CONNECTIONS: a device has 8 hardware work queues by default, and streams beyond 8
// share them, so work on one stream waits behind another's (h2d/streams: chunk i+8's copy behind
// chunk i's kernel, and 16 streams measure as 8). 32 is the most the driver takes. Set, like the
// module loading above, before the driver starts. A user's own value is kept: unlike lazy loading
// it cannot deadlock, and whoever sets it is studying it; the report records the value in effect
// (h2dbench.cuda.device_max_connections).
[[maybe_unused]] const bool enough_device_connections =
    setenv("CUDA_DEVICE_MAX_CONNECTIONS", "32", /*overwrite=*/0) == 0;

__global__ void latch_kernel(const volatile int* release, int* timed_out,
                             std::uint64_t timeout_ns) {
  const std::uint64_t start = global_timer_ns();
  while (*release == 0) {
    if (global_timer_ns() - start > timeout_ns) {
      *timed_out = 1;
      return;
    }
    pause_briefly();
  }
}

}  // namespace

cudaError_t launch_latch(const volatile int* release, int* timed_out, std::uint64_t timeout_ns,
                         cudaStream_t stream) {
  H2D_LAUNCH(latch_kernel, 1, 1, 0, stream)(release, timed_out, timeout_ns);
  return launch_status();
}

cudaError_t latch_kernel_attributes(cudaFuncAttributes* attributes) {
  return cudaFuncGetAttributes(attributes, reinterpret_cast<const void*>(&latch_kernel));
}

}  // namespace h2d::kernels
