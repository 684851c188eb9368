#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace h2d {

// When cudaMemcpyBatchAsync may read a batch's sources: in stream order (`stream`), or at any time
// after the call (`any`, "suited for host pointers allocated outside CUDA (ex., via malloc)").
enum class SourceOrder { stream, any };
std::string_view to_string(SourceOrder order);

// Whether this build has cudaMemcpyBatchAsync (CUDA 12.8 and later); when not, why, in words a
// skipped case gives.
bool batched_copy_built();
std::string batched_copy_missing();

// One host-to-device copy of a batch: `bytes` from `source` to `destination`.
struct BatchedCopy {
  void* destination = nullptr;
  const void* source = nullptr;
  std::size_t bytes = 0;
};

// Queues `copies` on `stream` in one cudaMemcpyBatchAsync call, every source under `order`, in
// either signature (12.8 and 12.9 take a failIdx that 13.0 removed: a failure then names the copy).
// The copies run in any order among themselves; the batch as a whole in stream order. Its sources
// must be all page-locked or all pageable (CUDA refuses a mix with cudaErrorInvalidValue). Throws
// CaseSkipped in a build without the call, CudaError for a failed call.
void enqueue_batched_copies(const std::vector<BatchedCopy>& copies, SourceOrder order,
                            cudaStream_t stream);

}  // namespace h2d
