#include "harness/cuda/batched_copy.hpp"

#include <fmt/format.h>

#include "harness/core/case_skipped.hpp"
#include "harness/cuda/cuda_error.hpp"

// cudaMemcpyBatchAsync came in CUDA 12.8; 13.0 dropped its failIdx argument.
#if CUDART_VERSION >= 12080
#define H2D_HAS_BATCHED_COPY 1
#else
#define H2D_HAS_BATCHED_COPY 0
#endif

namespace h2d {

std::string_view to_string(SourceOrder order) {
  return order == SourceOrder::stream ? "stream" : "any";
}

bool batched_copy_built() {
  return H2D_HAS_BATCHED_COPY != 0;
}

std::string batched_copy_missing() {
  return batched_copy_built()
             ? std::string()
             : fmt::format(
                   "copy=batched calls cudaMemcpyBatchAsync, which CUDA 12.8 added; this "
                   "build's toolkit is {}.{}",
                   CUDART_VERSION / 1000, CUDART_VERSION % 1000 / 10);
}

void enqueue_batched_copies(const std::vector<BatchedCopy>& copies, SourceOrder order,
                            cudaStream_t stream) {
#if H2D_HAS_BATCHED_COPY
  if (copies.empty()) {
    return;
  }
  std::vector<void*> destinations;
  std::vector<void*> sources;  // 12.8's form takes them without const
  std::vector<std::size_t> sizes;
  for (const BatchedCopy& copy : copies) {
    destinations.push_back(copy.destination);
    sources.push_back(const_cast<void*>(copy.source));
    sizes.push_back(copy.bytes);
  }
  cudaMemcpyAttributes attributes{};
  attributes.srcAccessOrder =
      order == SourceOrder::stream ? cudaMemcpySrcAccessOrderStream : cudaMemcpySrcAccessOrderAny;
  std::size_t first_copy_of_attributes = 0;
#if CUDART_VERSION >= 13000
  H2D_CUDA_CHECK(cudaMemcpyBatchAsync(destinations.data(), sources.data(), sizes.data(),
                                      copies.size(), &attributes, &first_copy_of_attributes, 1,
                                      stream));
#else
  std::size_t failed = 0;
  const cudaError_t status =
      cudaMemcpyBatchAsync(destinations.data(), sources.data(), sizes.data(), copies.size(),
                           &attributes, &first_copy_of_attributes, 1, &failed, stream);
  if (status != cudaSuccess) {
    detail::throw_cuda_error(
        status, fmt::format("cudaMemcpyBatchAsync (copy {} of {})", failed, copies.size()).c_str(),
        __FILE__, __LINE__);
  }
#endif
#else
  (void)copies;
  (void)order;
  (void)stream;
  throw CaseSkipped(batched_copy_missing());
#endif
}

}  // namespace h2d
