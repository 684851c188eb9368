#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace h2d::kernels {

// One copy of a gather: `bytes` from `source` to `destination`, both addresses the device can
// reach (device memory, or host memory's mapped address).
struct GatherCopy {
  void* destination;
  const void* source;
  unsigned long long bytes;
};

// Blocks each copy of a gather gets when the largest is `largest_bytes`: enough for a thread a
// 16-byte piece, at most kMaxGatherBlocks.
inline constexpr unsigned kMaxGatherBlocks = 64;
unsigned gather_blocks_per_copy(std::size_t largest_bytes);

// Every copy of `copies` (`count` of them, an array the device can read) in one launch:
// blockIdx.y picks the copy and the blocks along x share its bytes, 16-byte loads and stores where
// both ends are 16-byte aligned, bytes otherwise. What h2d/batch copy=kernel uses to pull a
// many-member batch out of mapped pinned memory with one call instead of one cudaMemcpyAsync each.
// Asynchronous on `stream`; cudaErrorInvalidValue for no copies or more than 65535.
cudaError_t launch_gather_copy(const GatherCopy* copies, unsigned count, unsigned blocks_per_copy,
                               cudaStream_t stream);

}  // namespace h2d::kernels
