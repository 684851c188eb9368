#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace h2d::kernels {

// Adds the checksum (harness/core/pattern.hpp) of `bytes` bytes at `data` into *result, which the
// caller zeroes first. Asynchronous on `stream`.
cudaError_t launch_checksum(const void* data, std::size_t bytes, unsigned long long* result,
                            cudaStream_t stream);

}  // namespace h2d::kernels
