#pragma once

#include <cuda_runtime_api.h>

namespace h2d::kernels {

// Every launcher returns the launch's status (cudaGetLastError) so the caller checks it with
// H2D_CUDA_CHECK and errors name the launch that failed.
inline cudaError_t launch_status() {
  return cudaGetLastError();
}

}  // namespace h2d::kernels
