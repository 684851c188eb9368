#include "harness/core/pattern.hpp"
#include "kernels/launch.cuh"
#include "kernels/launch_status.cuh"
#include "kernels/segment_checksum.cuh"

namespace h2d::kernels {
namespace {

constexpr int kThreads = 256;
constexpr std::size_t kMaxBlocksPerSegment = 64;

// blockIdx.y picks the segment; the blocks along x share its words.
__global__ void segment_checksum_kernel(const unsigned char* data, std::size_t segment_bytes,
                                        unsigned long long* sums, unsigned long long first_word) {
  const unsigned char* segment = data + blockIdx.y * segment_bytes;
  const std::size_t words = word_count(segment_bytes);
  std::uint64_t sum = 0;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < words;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    sum += checksum_term(load_word(segment, segment_bytes, i), first_word + i);
  }
  for (int offset = 16; offset > 0; offset /= 2) {
    sum += __shfl_down_sync(0xffffffffu, sum, offset);
  }
  if ((threadIdx.x & 31u) == 0) {
    atomicAdd(sums + blockIdx.y, static_cast<unsigned long long>(sum));
  }
}

}  // namespace

cudaError_t launch_segment_checksums(const void* data, std::size_t segment_bytes, unsigned segments,
                                     unsigned long long* sums, cudaStream_t stream,
                                     unsigned long long first_word) {
  if (segments == 0 || segments > 65535) {
    return cudaErrorInvalidValue;
  }
  const std::size_t wanted = (word_count(segment_bytes) + kThreads - 1) / kThreads;
  const auto blocks = static_cast<unsigned>(
      wanted < kMaxBlocksPerSegment ? (wanted > 0 ? wanted : 1) : kMaxBlocksPerSegment);
  H2D_LAUNCH(segment_checksum_kernel, dim3(blocks, segments), kThreads, 0, stream)
  (static_cast<const unsigned char*>(data), segment_bytes, sums, first_word);
  return launch_status();
}

}  // namespace h2d::kernels
