#include <cstdint>

#include "kernels/gather_copy.cuh"
#include "kernels/launch.cuh"
#include "kernels/launch_status.cuh"

namespace h2d::kernels {
namespace {

constexpr unsigned kThreads = 256;

__global__ void gather_copy_kernel(const GatherCopy* copies) {
  const GatherCopy copy = copies[blockIdx.y];
  auto* to = static_cast<unsigned char*>(copy.destination);
  const auto* from = static_cast<const unsigned char*>(copy.source);
  const std::size_t bytes = static_cast<std::size_t>(copy.bytes);
  const std::size_t thread = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  std::size_t first_byte = 0;
  if (reinterpret_cast<std::uintptr_t>(to) % 16 == 0 &&
      reinterpret_cast<std::uintptr_t>(from) % 16 == 0) {
    const std::size_t vectors = bytes / 16;
    for (std::size_t v = thread; v < vectors; v += stride) {
      reinterpret_cast<uint4*>(to)[v] = reinterpret_cast<const uint4*>(from)[v];
    }
    first_byte = 16 * vectors;
  }
  for (std::size_t i = first_byte + thread; i < bytes; i += stride) {
    to[i] = from[i];
  }
}

}  // namespace

unsigned gather_blocks_per_copy(std::size_t largest_bytes) {
  const std::size_t wanted = (largest_bytes / 16 + kThreads) / kThreads;
  return static_cast<unsigned>(wanted < kMaxGatherBlocks ? (wanted > 0 ? wanted : 1)
                                                         : kMaxGatherBlocks);
}

cudaError_t launch_gather_copy(const GatherCopy* copies, unsigned count, unsigned blocks_per_copy,
                               cudaStream_t stream) {
  if (count == 0 || count > 65535 || blocks_per_copy == 0) {
    return cudaErrorInvalidValue;
  }
  H2D_LAUNCH(gather_copy_kernel, dim3(blocks_per_copy, count), kThreads, 0, stream)(copies);
  return launch_status();
}

}  // namespace h2d::kernels
