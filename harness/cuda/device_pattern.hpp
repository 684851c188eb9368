#pragma once

#include <cstddef>
#include <cstdint>

#include "harness/cuda/stream.hpp"

namespace h2d {

// Device side of harness/core/checksum.hpp. All three synchronize `stream` before returning, so the
// buffer is settled before work on any other stream (ours are non-blocking: they do not wait for
// the legacy default stream, where a plain cudaMemset would go) touches it.
void device_zero(void* data, std::size_t bytes, const Stream& stream);
void device_fill_pattern(void* data, std::size_t bytes, std::uint64_t seed, const Stream& stream);
// The kernel that computes a checksum: kernels::launch_checksum (verification) by default, or
// another with the same contract (kernels::launch_read_checksum reads mapped memory fast).
using ChecksumLauncher = cudaError_t (*)(const void* data, std::size_t bytes,
                                         unsigned long long* result, cudaStream_t stream);
std::uint64_t device_checksum(const void* data, std::size_t bytes, const Stream& stream,
                              ChecksumLauncher launcher = nullptr);

}  // namespace h2d
