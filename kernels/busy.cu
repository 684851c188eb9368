#include "kernels/busy.cuh"
#include "kernels/device_clock.cuh"
#include "kernels/launch.cuh"
#include "kernels/launch_status.cuh"

namespace h2d::kernels {
namespace {

__global__ void busy_kernel(std::uint64_t duration_ns) {
  const std::uint64_t start = global_timer_ns();
  while (global_timer_ns() - start < duration_ns) {
  }
}

}  // namespace

cudaError_t launch_busy(std::uint64_t duration_ns, unsigned blocks, cudaStream_t stream) {
  const unsigned grid = blocks > 0 ? blocks : 1;
  H2D_LAUNCH(busy_kernel, grid, 32, 0, stream)(duration_ns);
  return launch_status();
}

}  // namespace h2d::kernels
