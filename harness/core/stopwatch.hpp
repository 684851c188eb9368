#pragma once

#include <chrono>

namespace h2d {

// Host steady clock, for what the host waits on: pageable and synchronous copies, enqueue cost.
class Stopwatch {
 public:
  using Clock = std::chrono::steady_clock;

  Stopwatch() : start_(Clock::now()) {}
  void restart() { start_ = Clock::now(); }
  double seconds() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }

 private:
  Clock::time_point start_;
};

}  // namespace h2d
