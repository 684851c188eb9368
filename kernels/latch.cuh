#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace h2d::kernels {

// Blocks `stream` with a one-thread kernel until the host writes non-zero to *release (mapped
// pinned memory) or `timeout_ns` passes; on timeout it writes 1 to *timed_out.
cudaError_t launch_latch(const volatile int* release, int* timed_out, std::uint64_t timeout_ns,
                         cudaStream_t stream);

// The latch kernel's attributes on the current device: cudaErrorInvalidDeviceFunction or
// cudaErrorNoKernelImageForDevice when the binary holds no code this device can run.
cudaError_t latch_kernel_attributes(cudaFuncAttributes* attributes);

}  // namespace h2d::kernels
