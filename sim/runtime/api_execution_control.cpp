// Runtime API, "Execution Control".
#include <cuda_runtime_api.h>

#include <cstring>

#include "sim/runtime/api_support.hpp"

using namespace h2d::sim;

// Kernels of the sim are host functions queued by enqueue_kernel, so any function pointer is a
// loadable kernel; its attributes are the device's limits (no registers or spills are modelled).
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, const void* func) {
  if (attr == nullptr || func == nullptr) {
    return fail(func == nullptr ? cudaErrorInvalidDeviceFunction : cudaErrorInvalidValue);
  }
  Device* device = nullptr;
  if (const cudaError_t error = current_device(device); error != cudaSuccess) {
    return error;
  }
  std::memset(attr, 0, sizeof *attr);
  attr->maxThreadsPerBlock = 1024;
  attr->ptxVersion = device->config().cc_major * 10 + device->config().cc_minor;
  attr->binaryVersion = attr->ptxVersion;
  attr->maxDynamicSharedSizeBytes = 48 * 1024;
  return cudaSuccess;
}
