#include "harness/cuda/host_registration.hpp"

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <stdexcept>
#include <utility>

#include "harness/core/byte_size.hpp"
#include "harness/cuda/cuda_error.hpp"

namespace h2d {

HostRegistration::HostRegistration(void* data, std::size_t bytes, unsigned flags) {
  if (data == nullptr || bytes == 0) {
    throw std::invalid_argument("cudaHostRegister needs a non-null pointer and at least one byte");
  }
  reservation_ = pinned_budget().reserve(
      bytes, fmt::format("registering {} of existing host memory", format_bytes(bytes)));
  H2D_CUDA_CHECK(cudaHostRegister(data, bytes, flags));
  data_ = data;
  bytes_ = bytes;
}

HostRegistration::HostRegistration(HostRegistration&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      bytes_(std::exchange(other.bytes_, 0)),
      reservation_(std::move(other.reservation_)) {}

HostRegistration& HostRegistration::operator=(HostRegistration&& other) noexcept {
  if (this != &other) {
    release();
    data_ = std::exchange(other.data_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
    reservation_ = std::move(other.reservation_);
  }
  return *this;
}

HostRegistration::~HostRegistration() {
  release();
}

void HostRegistration::reset() {
  if (data_ == nullptr) {
    return;
  }
  void* data = std::exchange(data_, nullptr);
  bytes_ = 0;
  reservation_ = PinnedReservation();
  H2D_CUDA_CHECK(cudaHostUnregister(data));
}

void HostRegistration::release() noexcept {
  if (data_ != nullptr) {
    cudaHostUnregister(data_);
    data_ = nullptr;
    bytes_ = 0;
    reservation_ = PinnedReservation();
  }
}

}  // namespace h2d
