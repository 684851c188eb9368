#pragma once

// Runs a whole grid on the calling thread (a stream's worker): each block's lanes are cooperative
// fibers that switch only where CUDA makes lanes meet (shuffles, __syncwarp, __syncthreads) or
// where a lane polls the clock. Blocks run one after another, several at once (up to
// kMaxResidentLanes lanes) so that blocks which spin on the clock overlap in time as resident
// blocks do on the GPU.

#include <vector_types.h>

#include <functional>

namespace h2d::sim {

inline constexpr unsigned kMaxResidentLanes = 1024;
inline constexpr unsigned kMaxThreadsPerBlock = 1024;  // every architecture since sm_20

// `lane` is the kernel called with its arguments; it reads the built-in variables for its index.
// Aborts with a message naming `kernel` when the lanes deadlock (a barrier some live lanes never
// reach).
void run_grid(const char* kernel, dim3 grid, dim3 block, const std::function<void()>& lane);

}  // namespace h2d::sim
