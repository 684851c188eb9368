#include "harness/core/pattern.hpp"
#include "kernels/fill.cuh"
#include "kernels/launch.cuh"
#include "kernels/launch_status.cuh"

namespace h2d::kernels {
namespace {

constexpr int kThreads = 256;

__global__ void fill_kernel(unsigned char* data, std::size_t bytes, std::uint64_t seed) {
  const std::size_t words = word_count(bytes);
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < words;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const std::uint64_t word = pattern_word(seed, i);
    const std::size_t first = i * 8;
    for (std::size_t byte = 0; byte < 8 && first + byte < bytes; ++byte) {
      data[first + byte] = static_cast<unsigned char>(word >> (8 * byte));
    }
  }
}

}  // namespace

cudaError_t launch_fill_pattern(void* data, std::size_t bytes, std::uint64_t seed,
                                cudaStream_t stream) {
  const std::size_t wanted = (word_count(bytes) + kThreads - 1) / kThreads;
  const unsigned blocks = static_cast<unsigned>(wanted < 4096 ? (wanted > 0 ? wanted : 1) : 4096);
  H2D_LAUNCH(fill_kernel, blocks, kThreads, 0, stream)
  (static_cast<unsigned char*>(data), bytes, seed);
  return launch_status();
}

}  // namespace h2d::kernels
