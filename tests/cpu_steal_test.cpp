// The CPU time a hypervisor took from this machine, read from /proc/stat.

#include "harness/core/cpu_steal.hpp"

#include <gtest/gtest.h>

#include <fstream>

namespace h2d {
namespace {

TEST(CpuSteal, ReadsTheAggregateLineInSeconds) {
  // user nice system idle iowait irq softirq steal guest guest_nice, in ticks of 1/100 s.
  const auto times = parse_cpu_times("cpu  500 0 100 300 0 0 50 50 7 0\ncpu0 1 2 3\n", 100);
  ASSERT_TRUE(times);
  EXPECT_DOUBLE_EQ(times->steal_s, 0.5);
  EXPECT_DOUBLE_EQ(times->total_s, 10.0) << "guest time is inside user already";
}

TEST(CpuSteal, SaysNothingForTextItCannotRead) {
  EXPECT_FALSE(parse_cpu_times("", 100));
  EXPECT_FALSE(parse_cpu_times("cpu0 1 2 3 4 5 6 7 8\n", 100)) << "a CPU's line, not the sum";
  EXPECT_FALSE(parse_cpu_times("cpu  1 2 3 4 5 6 7\n", 100)) << "no steal field";
  EXPECT_FALSE(parse_cpu_times("cpu  1 2 3 4 5 6 7 x\n", 100));
  EXPECT_FALSE(parse_cpu_times("cpu  1 2 3 4 5 6 7 8\n", 0));
}

TEST(CpuSteal, TheShareStolenBetweenTwoReadings) {
  const CpuTimes before{1.0, 100.0};
  const CpuTimes after{6.0, 200.0};
  EXPECT_DOUBLE_EQ(steal_pct(before, after), 5.0);
  EXPECT_DOUBLE_EQ(steal_pct(before, before), 0.0) << "no time passed";
}

TEST(CpuSteal, ThisMachineEitherSaysOrDoesNot) {
  const auto first = read_cpu_times();
  const auto second = read_cpu_times();
  ASSERT_EQ(first.has_value(), second.has_value());
  EXPECT_EQ(first.has_value(), std::ifstream("/proc/stat").good()) << "Linux says, and is read";
  if (first) {
    EXPECT_GE(second->total_s, first->total_s);
    EXPECT_GE(second->steal_s, first->steal_s);
    EXPECT_GE(steal_pct(*first, *second), 0.0);
  }
}

}  // namespace
}  // namespace h2d
