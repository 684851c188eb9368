#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "harness/host/normalize_params.hpp"

namespace h2d::kernels {

// Normalizes `samples` uint8 H×W×C images at `hwc` into float32 C×H×W at `chw`, channel c as
// normalize_value(x, params.scale[c], params.bias[c]); params.channels is C. Asynchronous on
// `stream`.
cudaError_t launch_normalize(const unsigned char* hwc, float* chw, std::size_t samples,
                             std::size_t height, std::size_t width, const NormalizeParams& params,
                             cudaStream_t stream);

}  // namespace h2d::kernels
