#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>

namespace h2d {

// A one-way "stop now" shared by the threads of one pipeline run. Waits that cannot use a
// closable queue (a GPU event, a host stand-in stream) check it, so shutdown never waits on
// work that will not come.
class Cancellation {
 public:
  Cancellation() = default;
  Cancellation(const Cancellation&) = delete;
  Cancellation& operator=(const Cancellation&) = delete;

  void cancel() noexcept;
  bool cancelled() const noexcept { return cancelled_.load(std::memory_order_acquire); }
  // Sleeps up to `timeout`, waking early on cancel(); returns cancelled().
  bool wait_for(std::chrono::nanoseconds timeout) const;

 private:
  std::atomic<bool> cancelled_{false};
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
};

}  // namespace h2d
