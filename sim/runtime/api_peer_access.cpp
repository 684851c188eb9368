// Runtime API, "Peer Device Memory Access". Which devices can reach each other is H2D_SIM_PEER.
#include <cuda_runtime_api.h>

#include "sim/runtime/api_support.hpp"

using namespace h2d::sim;

cudaError_t cudaDeviceCanAccessPeer(int* canAccessPeer, int device, int peerDevice) {
  if (canAccessPeer == nullptr) {
    return fail(cudaErrorInvalidValue);
  }
  if (runtime().device(device) == nullptr || runtime().device(peerDevice) == nullptr) {
    return fail(cudaErrorInvalidDevice);
  }
  *canAccessPeer = runtime().can_access_peer(device, peerDevice) ? 1 : 0;
  return cudaSuccess;
}

// "Access granted by this call is unidirectional"; enabling it twice is
// cudaErrorPeerAccessAlreadyEnabled, without a path cudaErrorPeerAccessUnsupported.
cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags) {
  Device* device = nullptr;
  if (const cudaError_t error = current_device(device); error != cudaSuccess) {
    return error;
  }
  if (flags != 0) {
    return fail(cudaErrorInvalidValue);
  }
  if (runtime().device(peerDevice) == nullptr || peerDevice == device->ordinal()) {
    return fail(cudaErrorInvalidDevice);
  }
  if (!runtime().can_access_peer(device->ordinal(), peerDevice)) {
    return fail(cudaErrorPeerAccessUnsupported);
  }
  return fail(device->enable_peer(peerDevice));
}

cudaError_t cudaDeviceDisablePeerAccess(int peerDevice) {
  Device* device = nullptr;
  if (const cudaError_t error = current_device(device); error != cudaSuccess) {
    return error;
  }
  if (runtime().device(peerDevice) == nullptr) {
    return fail(cudaErrorInvalidDevice);
  }
  return fail(device->disable_peer(peerDevice));
}
