#include <cstdint>

#include "kernels/launch.cuh"
#include "kernels/launch_status.cuh"
#include "kernels/sm_copy.cuh"

namespace h2d::kernels {
namespace {

__global__ void sm_copy_kernel(unsigned char* destination, const unsigned char* source,
                               std::size_t bytes, bool aligned16) {
  const std::size_t thread = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  std::size_t first_byte = 0;
  if (aligned16) {
    const std::size_t vectors = bytes / 16;
    const uint4* from = reinterpret_cast<const uint4*>(source);
    uint4* to = reinterpret_cast<uint4*>(destination);
    for (std::size_t v = thread; v < vectors; v += stride) {
      to[v] = from[v];
    }
    first_byte = 16 * vectors;
  }
  for (std::size_t i = first_byte + thread; i < bytes; i += stride) {
    destination[i] = source[i];
  }
}

}  // namespace

unsigned sm_copy_blocks(std::size_t bytes, int multiprocessors) {
  const std::size_t pieces = bytes / 16 + 1;
  const std::size_t wanted = (pieces + kSmCopyThreads - 1) / kSmCopyThreads;
  const std::size_t sms = multiprocessors > 0 ? static_cast<std::size_t>(multiprocessors) : 1;
  return static_cast<unsigned>(wanted < sms ? wanted : sms);
}

cudaError_t launch_sm_copy(void* destination, const void* source, std::size_t bytes,
                           unsigned blocks, cudaStream_t stream) {
  if (blocks == 0) {
    return cudaErrorInvalidValue;
  }
  const bool aligned16 = reinterpret_cast<std::uintptr_t>(destination) % 16 == 0 &&
                         reinterpret_cast<std::uintptr_t>(source) % 16 == 0;
  H2D_LAUNCH(sm_copy_kernel, blocks, kSmCopyThreads, 0, stream)
  (static_cast<unsigned char*>(destination), static_cast<const unsigned char*>(source), bytes,
   aligned16);
  return launch_status();
}

}  // namespace h2d::kernels
