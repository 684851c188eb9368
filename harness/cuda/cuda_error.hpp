#pragma once

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace h2d {

// A failed CUDA runtime call: carries the expression, where it was made and CUDA's own words.
class CudaError : public std::runtime_error {
 public:
  CudaError(cudaError_t code, const char* expression, const char* file, int line);
  cudaError_t code() const noexcept { return code_; }

 private:
  cudaError_t code_;
};

namespace detail {
void throw_cuda_error(cudaError_t code, const char* expression, const char* file, int line);
}  // namespace detail

}  // namespace h2d

// Every CUDA runtime call goes through this: a failure becomes an h2d::CudaError.
#define H2D_CUDA_CHECK(expr)                                                   \
  do {                                                                         \
    const cudaError_t h2d_status_ = (expr);                                    \
    if (h2d_status_ != cudaSuccess) {                                          \
      ::h2d::detail::throw_cuda_error(h2d_status_, #expr, __FILE__, __LINE__); \
    }                                                                          \
  } while (false)

// After a kernel launch: launch-configuration errors surface here rather than at the next call.
#define H2D_CUDA_CHECK_LAUNCH() H2D_CUDA_CHECK(cudaGetLastError())
