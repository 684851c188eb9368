// Runtime API, "Error Handling" and "Version Management".
#include <cuda.h>  // CUDA_VERSION: the sim's "driver" is the toolkit it was built with
#include <cuda_runtime_api.h>

#include "sim/runtime/api_support.hpp"

using namespace h2d::sim;

namespace {

// A sticky error is returned by every call, cudaGetLastError included, and never reset.
cudaError_t sticky_of_current_device() {
  Device* device = runtime().device(current_device_ordinal());
  return device != nullptr ? device->sticky_error() : cudaSuccess;
}

}  // namespace

cudaError_t cudaGetLastError() {
  const cudaError_t error = last_error(/*reset=*/true);
  const cudaError_t stuck = sticky_of_current_device();
  return stuck != cudaSuccess ? stuck : error;
}

cudaError_t cudaPeekAtLastError() {
  const cudaError_t error = last_error(/*reset=*/false);
  const cudaError_t stuck = sticky_of_current_device();
  return stuck != cudaSuccess ? stuck : error;
}

const char* cudaGetErrorName(cudaError_t error) {
  return error_name(error);
}

const char* cudaGetErrorString(cudaError_t error) {
  return error_string(error);
}

cudaError_t cudaRuntimeGetVersion(int* runtimeVersion) {
  if (runtimeVersion == nullptr) {
    return fail(cudaErrorInvalidValue);
  }
  *runtimeVersion = CUDART_VERSION;
  return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int* driverVersion) {
  if (driverVersion == nullptr) {
    return fail(cudaErrorInvalidValue);
  }
  *driverVersion = CUDA_VERSION;
  return cudaSuccess;
}
