#include "harness/pipeline/watchdog.hpp"

#include <algorithm>
#include <stdexcept>

#include "harness/trace/nvtx.hpp"

namespace h2d {

Watchdog::Watchdog(Seconds timeout, Fire fire, std::function<bool()> interrupted)
    : timeout_(timeout),
      fire_(std::move(fire)),
      interrupted_(std::move(interrupted)),
      last_kick_(Clock::now()) {
  if (!(timeout.count() > 0)) {
    throw std::invalid_argument("the watchdog timeout must be positive");
  }
  thread_ = std::thread([this] { watch(); });
}

Watchdog::~Watchdog() {
  stop();
}

void Watchdog::kick() {
  const Clock::time_point now = Clock::now();
  std::lock_guard<std::mutex> lock(mutex_);
  last_kick_ = now;
}

void Watchdog::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable()) {
    thread_.join();
  }
}

bool Watchdog::fired() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return fired_;
}

void Watchdog::watch() {
  nvtx_name_this_thread("watchdog");
  // Checks often enough that a stall is reported within a few percent of the timeout and Ctrl-C
  // within 50 ms, rarely enough to cost nothing.
  const auto tick = std::chrono::duration_cast<Clock::duration>(
      std::clamp(timeout_ / 20, Seconds(0.001), Seconds(0.05)));
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopping_) {
    const double idle = Seconds(Clock::now() - last_kick_).count();
    WatchdogEvent event;
    if (interrupted_ && interrupted_()) {
      event = WatchdogEvent::interrupted;
    } else if (idle >= timeout_.count()) {
      event = WatchdogEvent::stalled;
    } else {
      changed_.wait_for(lock, tick);
      continue;
    }
    fired_ = true;
    lock.unlock();
    fire_(event, idle);
    return;
  }
}

}  // namespace h2d
