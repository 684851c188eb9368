#include "harness/core/pattern.hpp"
#include "kernels/checksum.cuh"
#include "kernels/launch.cuh"
#include "kernels/launch_status.cuh"
#include "kernels/warp_sum.cuh"

namespace h2d::kernels {
namespace {

constexpr int kThreads = 256;

__global__ void checksum_kernel(const unsigned char* data, std::size_t bytes,
                                unsigned long long* result) {
  const std::size_t words = word_count(bytes);
  std::uint64_t sum = 0;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < words;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    sum += checksum_term(load_word(data, bytes, i), i);
  }
  add_warp_sums(result, sum);
}

}  // namespace

cudaError_t launch_checksum(const void* data, std::size_t bytes, unsigned long long* result,
                            cudaStream_t stream) {
  const std::size_t words = word_count(bytes);
  const std::size_t wanted = (words + kThreads - 1) / kThreads;
  const unsigned blocks = static_cast<unsigned>(wanted < 4096 ? (wanted > 0 ? wanted : 1) : 4096);
  H2D_LAUNCH(checksum_kernel, blocks, kThreads, 0, stream)
  (static_cast<const unsigned char*>(data), bytes, result);
  return launch_status();
}

}  // namespace h2d::kernels
