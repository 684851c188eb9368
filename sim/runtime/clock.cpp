#include "sim/runtime/clock.hpp"

#include <chrono>
#include <thread>

namespace h2d::sim {

std::uint64_t clock_ns() {
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                        std::chrono::steady_clock::now().time_since_epoch())
                                        .count());
}

void sleep_until_ns(std::uint64_t deadline_ns) {
  const auto deadline =
      std::chrono::steady_clock::time_point(std::chrono::nanoseconds(deadline_ns));
  std::this_thread::sleep_until(deadline);
}

}  // namespace h2d::sim
