#include "harness/cuda/peer_access.hpp"

#include <cuda_runtime_api.h>

#include "harness/cuda/cuda_error.hpp"
#include "harness/cuda/scoped_device.hpp"

namespace h2d {

PeerAccess::PeerAccess(int device, int peer) : device_(device), peer_(peer) {
  int can = 0;
  H2D_CUDA_CHECK(cudaDeviceCanAccessPeer(&can, device, peer));
  if (can == 0) {
    return;
  }
  ScopedDevice on(device);
  const cudaError_t status = cudaDeviceEnablePeerAccess(peer, 0);
  if (status == cudaErrorPeerAccessAlreadyEnabled) {
    cudaGetLastError();  // not an error for us; clear it so later checks start clean
    enabled_ = true;
    return;
  }
  H2D_CUDA_CHECK(status);
  enabled_ = true;
  owned_ = true;
}

PeerAccess::~PeerAccess() {
  if (!owned_) {
    return;
  }
  // A destructor cannot throw: restore the device by hand and ignore what cannot be undone.
  int previous = 0;
  if (cudaGetDevice(&previous) == cudaSuccess && cudaSetDevice(device_) == cudaSuccess) {
    cudaDeviceDisablePeerAccess(peer_);
    cudaSetDevice(previous);
  }
  cudaGetLastError();
}

}  // namespace h2d
