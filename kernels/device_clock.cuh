#pragma once

#include <cstdint>

namespace h2d::kernels {

// Nanoseconds from the GPU's global timer: wall-clock time, independent of SM clock changes.
__device__ inline std::uint64_t global_timer_ns() {
#if defined(__CUDACC__)
  std::uint64_t now = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  return now;
#else
  return h2d_global_timer_ns();  // the sim's clock (sim/device/device_language.hpp)
#endif
}

// Backs off a spinning thread where the architecture allows (sm_70+).
__device__ inline void pause_briefly() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  __nanosleep(200);
#endif
}

}  // namespace h2d::kernels
