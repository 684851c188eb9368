#include <cstdint>

#include "harness/core/pattern.hpp"
#include "kernels/launch.cuh"
#include "kernels/launch_status.cuh"
#include "kernels/warp_sum.cuh"
#include "kernels/zero_copy_read.cuh"

namespace h2d::kernels {
namespace {

constexpr unsigned kThreads = 256;
constexpr std::size_t kMaxBlocks = 1024;

__global__ void read_checksum_kernel(const unsigned char* data, std::size_t bytes, bool aligned16,
                                     unsigned long long* result) {
  const std::size_t thread = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  std::uint64_t sum = 0;
  std::size_t first_word = 0;
  if (aligned16) {
    // Pairs of little-endian 64-bit words, one 16-byte load each.
    const std::size_t pairs = bytes / 16;
    const uint4* vectors = reinterpret_cast<const uint4*>(data);
    for (std::size_t p = thread; p < pairs; p += stride) {
      const uint4 v = vectors[p];
      const std::uint64_t low =
          static_cast<std::uint64_t>(v.x) | (static_cast<std::uint64_t>(v.y) << 32);
      const std::uint64_t high =
          static_cast<std::uint64_t>(v.z) | (static_cast<std::uint64_t>(v.w) << 32);
      sum += checksum_term(low, 2 * p) + checksum_term(high, 2 * p + 1);
    }
    first_word = 2 * pairs;
  }
  // The rest (all of it when unaligned): word by word, zero-padded past the end.
  const std::size_t words = word_count(bytes);
  for (std::size_t i = first_word + thread; i < words; i += stride) {
    sum += checksum_term(load_word(data, bytes, i), i);
  }
  add_warp_sums(result, sum);
}

}  // namespace

cudaError_t launch_read_checksum(const void* data, std::size_t bytes, unsigned long long* result,
                                 cudaStream_t stream) {
  const bool aligned16 = reinterpret_cast<std::uintptr_t>(data) % 16 == 0;
  const std::size_t items = aligned16 ? bytes / 16 + 1 : word_count(bytes);
  const std::size_t wanted = (items + kThreads - 1) / kThreads;
  const unsigned blocks =
      static_cast<unsigned>(wanted < 1 ? 1 : (wanted > kMaxBlocks ? kMaxBlocks : wanted));
  H2D_LAUNCH(read_checksum_kernel, blocks, kThreads, 0, stream)
  (static_cast<const unsigned char*>(data), bytes, aligned16, result);
  return launch_status();
}

}  // namespace h2d::kernels
