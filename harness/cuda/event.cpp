#include "harness/cuda/event.hpp"

#include <fmt/format.h>

#include <stdexcept>
#include <utility>

#include "harness/cuda/cuda_error.hpp"
#include "harness/cuda/scoped_device.hpp"

namespace h2d {

Event::Event(int device) : device_(device) {
  ScopedDevice on(device);
  H2D_CUDA_CHECK(cudaEventCreate(&event_));
}

Event::Event(Event&& other) noexcept
    : device_(other.device_), event_(std::exchange(other.event_, nullptr)) {}

Event& Event::operator=(Event&& other) noexcept {
  if (this != &other) {
    release();
    device_ = other.device_;
    event_ = std::exchange(other.event_, nullptr);
  }
  return *this;
}

Event::~Event() {
  release();
}

void Event::record(cudaStream_t stream) const {
  H2D_CUDA_CHECK(cudaEventRecord(event_, stream));
}

void Event::synchronize() const {
  H2D_CUDA_CHECK(cudaEventSynchronize(event_));
}

bool Event::ready() const {
  const cudaError_t status = cudaEventQuery(event_);
  if (status == cudaErrorNotReady) {
    cudaGetLastError();
    return false;
  }
  H2D_CUDA_CHECK(status);
  return true;
}

void Event::release() noexcept {
  if (event_ != nullptr) {
    cudaEventDestroy(event_);
    event_ = nullptr;
  }
}

double elapsed_ms(const Event& start, const Event& stop) {
  if (start.device() != stop.device()) {
    throw std::logic_error(fmt::format(
        "events of device {} and device {} cannot be subtracted; use a host-clock window",
        start.device(), stop.device()));
  }
  float ms = 0;
  H2D_CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()));
  return static_cast<double>(ms);
}

}  // namespace h2d
