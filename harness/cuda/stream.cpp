#include "harness/cuda/stream.hpp"

#include <utility>

#include "harness/cuda/cuda_error.hpp"
#include "harness/cuda/scoped_device.hpp"

namespace h2d {

Stream::Stream(int device) : device_(device) {
  ScopedDevice on(device);
  H2D_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
}

Stream::Stream(Stream&& other) noexcept
    : device_(other.device_), stream_(std::exchange(other.stream_, nullptr)) {}

Stream& Stream::operator=(Stream&& other) noexcept {
  if (this != &other) {
    release();
    device_ = other.device_;
    stream_ = std::exchange(other.stream_, nullptr);
  }
  return *this;
}

Stream::~Stream() {
  release();
}

void Stream::synchronize() const {
  H2D_CUDA_CHECK(cudaStreamSynchronize(stream_));
}

void Stream::release() noexcept {
  if (stream_ != nullptr) {
    cudaStreamDestroy(stream_);
    stream_ = nullptr;
  }
}

}  // namespace h2d
