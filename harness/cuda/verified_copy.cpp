#include "harness/cuda/verified_copy.hpp"

#include <cstring>

#include "harness/core/checksum.hpp"
#include "harness/core/verification.hpp"
#include "harness/cuda/cuda_error.hpp"
#include "harness/cuda/device_pattern.hpp"
#include "harness/trace/nvtx.hpp"

namespace h2d {

VerifiedCopy::VerifiedCopy(std::byte* host, std::byte* device, std::size_t bytes,
                           Direction direction, int copies, std::uint64_t seed,
                           const Stream& stream)
    : host_(host), device_(device), seed_(seed), stream_(stream) {
  job_.direction = direction;
  job_.bytes = bytes;
  job_.copies = copies;
  const bool to_device = direction == Direction::h2d;
  job_.destination = to_device ? static_cast<void*>(device) : host;
  job_.source = to_device ? static_cast<const void*>(host) : device;
  if (to_device) {
    fill_pattern(host, bytes, seed);
  } else {
    device_fill_pattern(device, bytes, seed, stream);
  }
  clear_destination();
  H2D_CUDA_CHECK(cudaMemcpy(job_.destination, job_.source, bytes, memcpy_kind(direction)));
  H2D_CUDA_CHECK(cudaDeviceSynchronize());  // a pageable copy may return before it lands
  clear_destination();                      // the warm-up must not mask a miss
}

void VerifiedCopy::clear_destination() const {
  if (job_.direction == Direction::h2d) {
    device_zero(device_, job_.bytes, stream_);
  } else {
    std::memset(host_, 0, job_.bytes);
  }
}

void VerifiedCopy::verify() const {
  NvtxRange verify(NvtxCategory::verify, "checksum");
  const std::uint64_t actual = job_.direction == Direction::h2d
                                   ? device_checksum(device_, job_.bytes, stream_)
                                   : host_checksum(host_, job_.bytes);
  verify_checksum(actual, expected_checksum(job_.bytes, seed_), "data that arrived");
}

}  // namespace h2d
