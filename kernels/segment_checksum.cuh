#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace h2d::kernels {

// Adds the checksum (harness/core/pattern.hpp) of each of `segments` consecutive segments of
// `segment_bytes` bytes at `data` into sums[segment], which the caller zeroes first: one launch
// for the per-sample checksums of a whole batch, each equal to host_checksum() of that sample
// (with the same `first_word`: a later member of the sample continues its earlier ones).
// Asynchronous on `stream`.
cudaError_t launch_segment_checksums(const void* data, std::size_t segment_bytes, unsigned segments,
                                     unsigned long long* sums, cudaStream_t stream,
                                     unsigned long long first_word = 0);

}  // namespace h2d::kernels
