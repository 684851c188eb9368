#include "harness/cuda/kernel_image.hpp"

#include <cuda_runtime_api.h>

#include "harness/core/kernel_image_message.hpp"
#include "harness/core/usage_error.hpp"
#include "harness/cuda/cuda_error.hpp"
#include "harness/cuda/scoped_device.hpp"
#include "kernels/latch.cuh"

namespace h2d {

std::string built_cuda_architectures() {
#ifdef H2D_BUILT_CUDA_ARCHITECTURES
  return H2D_BUILT_CUDA_ARCHITECTURES;
#else
  return {};
#endif
}

bool has_kernel_image(int device) {
  ScopedDevice on(device);
  cudaFuncAttributes attributes{};
  const cudaError_t status = kernels::latch_kernel_attributes(&attributes);
  if (status == cudaErrorInvalidDeviceFunction || status == cudaErrorNoKernelImageForDevice) {
    cudaGetLastError();  // not sticky: clear it so later calls start clean
    return false;
  }
  H2D_CUDA_CHECK(status);
  return true;
}

void require_kernel_images(const std::vector<DeviceInfo>& gpus) {
  for (const DeviceInfo& gpu : gpus) {
    if (!has_kernel_image(gpu.ordinal)) {
      throw UsageError(missing_kernel_image_message(gpu, built_cuda_architectures()));
    }
  }
}

}  // namespace h2d
