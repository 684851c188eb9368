#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace h2d::kernels {

// Occupies `blocks` blocks on the GPU for `duration_ns` of wall-clock time: a stand-in for a
// forward/backward step of known length. Asynchronous on `stream`.
cudaError_t launch_busy(std::uint64_t duration_ns, unsigned blocks, cudaStream_t stream);

}  // namespace h2d::kernels
