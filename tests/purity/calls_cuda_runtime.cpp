// A deliberate violation for the test "pure_library_rejects_cuda_calls": a pure library whose one
// source calls the CUDA runtime. Its link check must fail with an undefined reference, which
// proves that the same check guards core, trace, host, topology, report, cli and pipeline.
#include <cuda_runtime_api.h>

#include <cstddef>

namespace h2d::purity_probe {

void* allocate_on_device(std::size_t bytes) {
  void* pointer = nullptr;
  return cudaMalloc(&pointer, bytes) == cudaSuccess ? pointer : nullptr;
}

}  // namespace h2d::purity_probe
