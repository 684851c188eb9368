#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace h2d::kernels {

// Reads `bytes` bytes at `data` once and adds their checksum (harness/core/pattern.hpp, identical
// to launch_checksum's) into *result, which the caller zeroes first. Built for data that lives
// across the bus (mapped pinned host memory, zero-copy): 16-byte loads where `data` is 16-byte
// aligned, so each warp asks for 512 contiguous bytes per step. Works on device memory too, which
// is how zero-copy and copy-then-read are compared with the same kernel. Asynchronous on `stream`.
cudaError_t launch_read_checksum(const void* data, std::size_t bytes, unsigned long long* result,
                                 cudaStream_t stream);

}  // namespace h2d::kernels
