#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace h2d::kernels {

// Threads of one block of the SM copy: nvbandwidth's _sm tests run 512 a block, a block an SM.
inline constexpr unsigned kSmCopyThreads = 512;

// Blocks an SM copy of `bytes` uses on a GPU of `multiprocessors` SMs: one an SM, fewer when the
// copy has fewer 16-byte pieces than that many threads.
unsigned sm_copy_blocks(std::size_t bytes, int multiprocessors);

// Copies `bytes` from `source` to `destination` with the SMs instead of a copy engine, as
// nvbandwidth's *_memcpy_sm tests do: a grid-stride loop of 16-byte loads and stores where both
// ends are 16-byte aligned, byte by byte otherwise and for the tail. Either end may be host memory
// mapped into the device's address space (its device pointer): the kernel then reads or writes
// across the bus while the copy engines stay free and the SMs are taken. Asynchronous on `stream`.
cudaError_t launch_sm_copy(void* destination, const void* source, std::size_t bytes,
                           unsigned blocks, cudaStream_t stream);

}  // namespace h2d::kernels
