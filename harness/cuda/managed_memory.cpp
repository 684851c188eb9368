#include "harness/cuda/managed_memory.hpp"

#include <stdexcept>

#include "harness/cuda/cuda_error.hpp"

namespace h2d {
namespace {

// cudaMemPrefetchAsync to `device` (cudaCpuDeviceId: the host), in the toolkit's form.
void prefetch(const void* data, std::size_t bytes, int device, cudaStream_t stream) {
#if CUDART_VERSION >= 13000
  cudaMemLocation location{};
  location.type = device == cudaCpuDeviceId ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;
  location.id = device == cudaCpuDeviceId ? 0 : device;
  H2D_CUDA_CHECK(cudaMemPrefetchAsync(data, bytes, location, 0, stream));
#else
  H2D_CUDA_CHECK(cudaMemPrefetchAsync(data, bytes, device, stream));
#endif
}

}  // namespace

ManagedBuffer::ManagedBuffer(std::size_t bytes) : bytes_(bytes) {
  if (bytes == 0) {
    throw std::invalid_argument("a managed buffer needs at least one byte");
  }
  void* pointer = nullptr;
  H2D_CUDA_CHECK(cudaMallocManaged(&pointer, bytes, cudaMemAttachGlobal));
  data_ = static_cast<std::byte*>(pointer);
}

ManagedBuffer::ManagedBuffer(ManagedBuffer&& other) noexcept
    : data_(other.data_), bytes_(other.bytes_) {
  other.data_ = nullptr;
}

ManagedBuffer::~ManagedBuffer() {
  if (data_ != nullptr) {
    cudaFree(data_);  // errors ignored: a destructor, and a failed case already threw
  }
}

void ManagedBuffer::prefetch_to_device(int device, cudaStream_t stream) const {
  prefetch(data_, bytes_, device, stream);
}

void ManagedBuffer::prefetch_to_host(cudaStream_t stream) const {
  prefetch(data_, bytes_, cudaCpuDeviceId, stream);
}

bool concurrent_managed_access(int device) {
  int value = 0;
  H2D_CUDA_CHECK(cudaDeviceGetAttribute(&value, cudaDevAttrConcurrentManagedAccess, device));
  return value != 0;
}

}  // namespace h2d
