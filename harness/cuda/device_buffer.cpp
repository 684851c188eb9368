#include "harness/cuda/device_buffer.hpp"

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <utility>

#include "harness/cuda/cuda_error.hpp"
#include "harness/cuda/scoped_device.hpp"

namespace h2d {

DeviceBuffer::DeviceBuffer(int device, std::size_t bytes) : device_(device), bytes_(bytes) {
  if (bytes == 0) {
    throw std::invalid_argument("a device buffer needs at least one byte");
  }
  ScopedDevice on(device);
  void* pointer = nullptr;
  H2D_CUDA_CHECK(cudaMalloc(&pointer, bytes));
  data_ = static_cast<std::byte*>(pointer);
}

DeviceBuffer::DeviceBuffer(DeviceBuffer&& other) noexcept
    : device_(other.device_),
      data_(std::exchange(other.data_, nullptr)),
      bytes_(std::exchange(other.bytes_, 0)) {}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& other) noexcept {
  if (this != &other) {
    release();
    device_ = other.device_;
    data_ = std::exchange(other.data_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

DeviceBuffer::~DeviceBuffer() {
  release();
}

void DeviceBuffer::release() noexcept {
  if (data_ != nullptr) {
    cudaFree(data_);  // implicitly synchronizes; a destructor cannot report its error
    data_ = nullptr;
    bytes_ = 0;
  }
}

}  // namespace h2d
