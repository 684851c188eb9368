#include "harness/core/cancellation.hpp"

namespace h2d {

void Cancellation::cancel() noexcept {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    cancelled_.store(true, std::memory_order_release);
  }
  changed_.notify_all();
}

bool Cancellation::wait_for(std::chrono::nanoseconds timeout) const {
  std::unique_lock<std::mutex> lock(mutex_);
  return changed_.wait_for(lock, timeout, [this] { return cancelled(); });
}

}  // namespace h2d
