// Runtime API, "Device Management".
#include <cuda_runtime_api.h>

#include <cstdio>

#include "sim/runtime/api_support.hpp"
#include "sim/runtime/device_properties.hpp"
#include "sim/runtime/runtime_call.hpp"

using namespace h2d::sim;

namespace {

cudaError_t device_by_ordinal(int ordinal, Device*& device) {
  device = runtime().device(ordinal);
  return device == nullptr ? fail(cudaErrorInvalidDevice) : cudaSuccess;
}

}  // namespace

cudaError_t cudaGetDeviceCount(int* count) {
  if (count == nullptr) {
    return fail(cudaErrorInvalidValue);
  }
  *count = runtime().device_count();
  return *count == 0 ? fail(cudaErrorNoDevice) : cudaSuccess;
}

cudaError_t cudaSetDevice(int device) {
  Device* chosen = nullptr;
  if (const cudaError_t error = device_by_ordinal(device, chosen); error != cudaSuccess) {
    return error;
  }
  set_current_device_ordinal(device);
  return sticky(*chosen);
}

cudaError_t cudaGetDevice(int* device) {
  if (device == nullptr) {
    return fail(cudaErrorInvalidValue);
  }
  if (runtime().device_count() == 0) {
    return fail(cudaErrorNoDevice);
  }
  *device = current_device_ordinal();
  return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  Device* found = nullptr;
  if (prop == nullptr) {
    return fail(cudaErrorInvalidValue);
  }
  if (const cudaError_t error = device_by_ordinal(device, found); error != cudaSuccess) {
    return error;
  }
  *prop = device_properties(*found);
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  Device* found = nullptr;
  if (value == nullptr) {
    return fail(cudaErrorInvalidValue);
  }
  if (const cudaError_t error = device_by_ordinal(device, found); error != cudaSuccess) {
    return error;
  }
  return device_attribute(device_properties(*found), attr, *value) ? cudaSuccess
                                                                   : fail(cudaErrorInvalidValue);
}

cudaError_t cudaDeviceGetPCIBusId(char* pciBusId, int len, int device) {
  Device* found = nullptr;
  if (pciBusId == nullptr || len <= 0) {
    return fail(cudaErrorInvalidValue);
  }
  if (const cudaError_t error = device_by_ordinal(device, found); error != cudaSuccess) {
    return error;
  }
  std::snprintf(pciBusId, static_cast<std::size_t>(len), "%s", found->bus_id().c_str());
  return cudaSuccess;
}

// "Blocks until the device has completed all preceding requested tasks"; returns an error of
// an earlier asynchronous launch (here: the device's sticky error).
cudaError_t cudaDeviceSynchronize() {
  RuntimeCall call("cudaDeviceSynchronize");
  Device* device = nullptr;
  if (const cudaError_t error = current_device(device); error != cudaSuccess) {
    return error;
  }
  call.set_device(device->ordinal());
  device->wait_idle();
  return sticky(*device);
}
