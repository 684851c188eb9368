#include "harness/cuda/scoped_device.hpp"

#include <cuda_runtime_api.h>

#include "harness/cuda/cuda_error.hpp"

namespace h2d {

ScopedDevice::ScopedDevice(int ordinal) {
  H2D_CUDA_CHECK(cudaGetDevice(&previous_));
  H2D_CUDA_CHECK(cudaSetDevice(ordinal));
}

ScopedDevice::~ScopedDevice() {
  cudaSetDevice(previous_);
}

}  // namespace h2d
