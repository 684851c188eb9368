#include "kernels/device_clock.cuh"
#include "kernels/latch.cuh"
#include "kernels/launch_status.cuh"

namespace h2d::kernels {
namespace {

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
  latch_kernel<<<1, 1, 0, stream>>>(release, timed_out, timeout_ns);
  return launch_status();
}

}  // namespace h2d::kernels
