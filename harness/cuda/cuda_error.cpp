#include "harness/cuda/cuda_error.hpp"

#include <fmt/format.h>

namespace h2d {

CudaError::CudaError(cudaError_t code, const char* expression, const char* file, int line)
    : std::runtime_error(fmt::format("{} failed at {}:{}: {} ({})", expression, file, line,
                                     cudaGetErrorString(code), cudaGetErrorName(code))),
      code_(code) {}

namespace detail {
void throw_cuda_error(cudaError_t code, const char* expression, const char* file, int line) {
  throw CudaError(code, expression, file, line);
}
}  // namespace detail

}  // namespace h2d
