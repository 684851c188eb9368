#pragma once

// CUDA's built-in variables (Programming Guide, "Built-in Variables"). Every lane of a simulated
// block is a fiber on the stream's worker thread; the grid runner stores the running lane's
// indices here at each switch between lanes, so kernel code reads its own as on the GPU.

#include <vector_types.h>

inline thread_local uint3 threadIdx{};
inline thread_local uint3 blockIdx{};
inline thread_local dim3 blockDim;
inline thread_local dim3 gridDim;
inline constexpr int warpSize = 32;
