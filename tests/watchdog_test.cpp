#include "harness/pipeline/watchdog.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "harness/core/stopwatch.hpp"

namespace h2d {
namespace {

using namespace std::chrono_literals;

struct Firing {
  std::mutex mutex;
  int count = 0;
  WatchdogEvent event = WatchdogEvent::stalled;
  double idle_s = 0;
  double at_s = 0;
};

TEST(Watchdog, FiresOnceWhenNothingHappensForTheTimeout) {
  Firing firing;
  const Stopwatch clock;
  Watchdog watchdog(Watchdog::Seconds(0.2), [&](WatchdogEvent event, double idle_s) {
    std::lock_guard<std::mutex> lock(firing.mutex);
    ++firing.count;
    firing.event = event;
    firing.idle_s = idle_s;
    firing.at_s = clock.seconds();
  });
  std::this_thread::sleep_for(600ms);
  watchdog.stop();
  std::lock_guard<std::mutex> lock(firing.mutex);
  EXPECT_EQ(firing.count, 1);
  EXPECT_EQ(firing.event, WatchdogEvent::stalled);
  EXPECT_GE(firing.idle_s, 0.2);
  EXPECT_GE(firing.at_s, 0.2);
  EXPECT_LT(firing.at_s, 0.45) << "reported late";
  EXPECT_TRUE(watchdog.fired());
}

TEST(Watchdog, StaysQuietWhileKicked) {
  std::atomic<int> fired{0};
  Watchdog watchdog(Watchdog::Seconds(0.15), [&](WatchdogEvent, double) { ++fired; });
  for (int i = 0; i < 30; ++i) {
    std::this_thread::sleep_for(10ms);
    watchdog.kick();
  }
  watchdog.stop();
  EXPECT_EQ(fired.load(), 0);
  EXPECT_FALSE(watchdog.fired());
}

TEST(Watchdog, ReportsAnInterruptAtOnce) {
  std::atomic<bool> interrupted{false};
  std::atomic<int> event{-1};
  Watchdog watchdog(
      Watchdog::Seconds(30), [&](WatchdogEvent e, double) { event = static_cast<int>(e); },
      [&] { return interrupted.load(); });
  std::this_thread::sleep_for(20ms);
  const Stopwatch clock;
  interrupted = true;
  while (event.load() < 0 && clock.seconds() < 2) {
    std::this_thread::sleep_for(1ms);
  }
  EXPECT_EQ(event.load(), static_cast<int>(WatchdogEvent::interrupted));
  EXPECT_LT(clock.seconds(), 0.2);
}

TEST(Watchdog, StopEndsTheWatchWithoutFiring) {
  std::atomic<int> fired{0};
  {
    Watchdog watchdog(Watchdog::Seconds(0.05), [&](WatchdogEvent, double) { ++fired; });
    watchdog.stop();
    std::this_thread::sleep_for(100ms);
  }
  EXPECT_EQ(fired.load(), 0);
  EXPECT_THROW(Watchdog(Watchdog::Seconds(0), [](WatchdogEvent, double) {}), std::invalid_argument);
}

}  // namespace
}  // namespace h2d
