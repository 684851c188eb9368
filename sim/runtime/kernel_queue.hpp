#pragma once
#include <cuda_runtime_api.h>

#include <functional>
#include <string>

namespace h2d::sim {
// Queues a kernel on `stream` (0 / cudaStreamLegacy / cudaStreamPerThread as CUDA treats them).
// `body` runs the whole grid on the stream's worker thread when the stream reaches it (the
// device shim decides how lanes and warps execute). Records a kernel activity (name, start,
// end) for the CUPTI stand-in. Honours CUDA_LAUNCH_BLOCKING=1 (returns after body ran) and
// injected kernel stalls. Invalid stream / no device: returns the CUDA error and sets the
// thread's last error as cudaGetLastError reports it. Returns cudaSuccess otherwise.
cudaError_t enqueue_kernel(cudaStream_t stream, std::string name, std::function<void()> body);
}  // namespace h2d::sim
