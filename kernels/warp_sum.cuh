#pragma once

#include <cstdint>

namespace h2d::kernels {

// Adds every thread's `sum` into *result: a warp shuffle reduction, then one atomic per warp.
// All 32 threads of each warp must call it (block sizes are multiples of 32).
__device__ inline void add_warp_sums(unsigned long long* result, std::uint64_t sum) {
  for (int offset = 16; offset > 0; offset /= 2) {
    sum += __shfl_down_sync(0xffffffffu, sum, offset);
  }
  if ((threadIdx.x & 31u) == 0) {
    atomicAdd(result, static_cast<unsigned long long>(sum));
  }
}

}  // namespace h2d::kernels
