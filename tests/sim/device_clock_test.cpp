// The sim's device clock: %globaltimer is the sim's wall clock, and lanes that poll it (or
// __nanosleep) let the others run, so spinning lanes overlap in time as on the GPU.

#include "sim/device/device_language.hpp"  // first: these tests define kernels

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <vector>

#include "kernels/busy.cuh"
#include "kernels/device_clock.cuh"
#include "kernels/launch.cuh"
#include "sim/runtime/activity_log.hpp"
#include "tests/sim/device_test_support.hpp"

namespace {

using h2d_sim_test::DeviceArray;

constexpr unsigned kReadings = 1000;

__global__ void read_timer(std::uint64_t* readings) {
  for (unsigned i = 0; i < kReadings; ++i) {
    readings[threadIdx.x * kReadings + i] = h2d::kernels::global_timer_ns();
  }
}

// Lane 0 waits for lane 1's flag, sleeping between looks: it only ends if lane 1 runs meanwhile.
__global__ void wait_for_neighbour(volatile int* flag, int* seen) {
  if (threadIdx.x == 0) {
    while (*flag == 0) {
      __nanosleep(1000);
    }
    *seen = 1;
  } else {
    *flag = 1;
  }
}

TEST(SimDeviceClock, GlobalTimerIsMonotonicOnTheSimClock) {
  const DeviceArray<std::uint64_t> readings(2 * kReadings);
  const std::uint64_t before = h2d::sim::clock_ns();
  H2D_LAUNCH(read_timer, 1, 2, 0, nullptr)(readings.get());
  const std::vector<std::uint64_t> got = readings.read();
  const std::uint64_t after = h2d::sim::clock_ns();
  for (unsigned lane = 0; lane < 2; ++lane) {
    for (unsigned i = 0; i < kReadings; ++i) {
      const std::uint64_t now = got[lane * kReadings + i];
      ASSERT_GE(now, before);
      ASSERT_LE(now, after);
      if (i > 0) {
        ASSERT_GE(now, got[lane * kReadings + i - 1]) << "lane " << lane << " reading " << i;
      }
    }
  }
}

TEST(SimDeviceClock, SpinningBlocksOverlapInTime) {
  // 4 blocks of 32 lanes spin for 50 ms each: together, not 128 times 50 ms one after another.
  constexpr std::uint64_t kSpinNs = 50'000'000;
  const auto start = std::chrono::steady_clock::now();
  ASSERT_EQ(h2d::kernels::launch_busy(kSpinNs, 4, nullptr), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_GE(elapsed, std::chrono::nanoseconds(kSpinNs));
  EXPECT_LT(elapsed, std::chrono::nanoseconds(10 * kSpinNs));
}

TEST(SimDeviceClock, NanosleepLetsTheOtherLanesRun) {
  const DeviceArray<int> flag(1);
  const DeviceArray<int> seen(1);
  H2D_LAUNCH(wait_for_neighbour, 1, 2, 0, nullptr)(flag.get(), seen.get());
  EXPECT_EQ(seen.read()[0], 1);
}

}  // namespace
