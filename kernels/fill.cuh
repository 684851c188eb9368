#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace h2d::kernels {

// Writes the pattern of harness/core/pattern.hpp with `seed` into `bytes` bytes of device memory,
// byte-identical to the host's fill_pattern. Asynchronous on `stream`.
cudaError_t launch_fill_pattern(void* data, std::size_t bytes, std::uint64_t seed,
                                cudaStream_t stream);

}  // namespace h2d::kernels
