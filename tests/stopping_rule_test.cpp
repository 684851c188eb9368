// The stopping rule: when a case has measured enough.

#include "harness/core/stopping_rule.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "tests/sample_patterns.hpp"

namespace h2d {
namespace {

using h2d_test::alternating_samples;
using h2d_test::steady_samples;

TEST(StoppingRule, ASteadyCaseStopsAtTheFloorOnceItsMedianIsKnown) {
  const StoppingRule rule;
  EXPECT_EQ(decide(rule, steady_samples(9), 0.01), StopReason::measuring)
      << "under the floor of 10";
  EXPECT_EQ(decide(rule, steady_samples(10), 0.01), StopReason::median_known);
}

TEST(StoppingRule, ANoisyCaseGoesOnUntilItsTimeCapAndIsNoisy) {
  const StoppingRule rule;  // 0.3 s cap
  EXPECT_EQ(decide(rule, alternating_samples(200), 0.29), StopReason::measuring);
  EXPECT_EQ(decide(rule, alternating_samples(200), 0.30), StopReason::time_cap);
  EXPECT_TRUE(is_noisy(StopReason::time_cap));
  EXPECT_FALSE(is_noisy(StopReason::median_known));
}

// One epoch of a pipeline can outlast the cap: it still takes three, so it has a spread.
TEST(StoppingRule, PastTheCapACaseStillTakesThreeMeasurements) {
  const StoppingRule rule;
  EXPECT_EQ(decide(rule, alternating_samples(2), 5.0), StopReason::measuring);
  EXPECT_EQ(decide(rule, alternating_samples(3), 5.0), StopReason::time_cap);
}

TEST(StoppingRule, MinimumTimeHoldsASteadyCaseAndRaisesTheCap) {
  StoppingRule rule;
  rule.min_seconds = 2;  // --benchmark_min_time=2
  EXPECT_DOUBLE_EQ(rule.cap_seconds(), 2);
  EXPECT_EQ(decide(rule, steady_samples(50), 1.0), StopReason::measuring)
      << "known, but not 2 s yet";
  EXPECT_EQ(decide(rule, steady_samples(50), 2.0), StopReason::median_known);
  EXPECT_EQ(decide(rule, alternating_samples(50), 1.0), StopReason::measuring)
      << "the 0.3 s cap rose to 2 s";
  EXPECT_EQ(decide(rule, alternating_samples(50), 2.0), StopReason::time_cap);
}

TEST(StoppingRule, CountCapAndExactCount) {
  StoppingRule rule;
  rule.max_measurements = 40;
  EXPECT_EQ(decide(rule, alternating_samples(40), 0.01), StopReason::count_cap);
  rule.exact_measurements = 3;  // profile mode: no interval asked, steady or not
  EXPECT_EQ(decide(rule, steady_samples(2), 10.0), StopReason::measuring);
  EXPECT_EQ(decide(rule, alternating_samples(3), 0.0), StopReason::exact_count);
}

// The interval is the rule's 97% one (kStoppedIntervalConfidence): under 7 samples none exists, so
// a looser target cannot stop a case before its floor either (6 identical samples are not a known
// median).
TEST(StoppingRule, TheTargetIsAConfidenceIntervalNotASpread) {
  StoppingRule rule;
  rule.min_measurements = 2;
  EXPECT_EQ(decide(rule, steady_samples(6), 0.01), StopReason::measuring);
  EXPECT_EQ(decide(rule, steady_samples(7), 0.01), StopReason::median_known);
  rule.target_rel_ci_pct = 40;  // 1 and 2 alternate: the interval 1..2 is 33% of a median of 1.5
  EXPECT_EQ(decide(rule, alternating_samples(8), 0.01), StopReason::median_known);
}

TEST(StoppingRule, PresetsCapQuickAtATenthAndFullAtTwoSeconds) {
  EXPECT_DOUBLE_EQ(preset_stopping_rule(Preset::quick, 634).max_seconds, 0.1);
  EXPECT_DOUBLE_EQ(preset_stopping_rule(Preset::quick, 5).max_seconds, 0.1);
  EXPECT_DOUBLE_EQ(preset_stopping_rule(Preset::full, 5).max_seconds, 2.0);
  EXPECT_DOUBLE_EQ(preset_stopping_rule(Preset::standard, 634).target_rel_ci_pct, 1.0);
  EXPECT_EQ(stop_reason_from_counter(2), StopReason::time_cap);
  EXPECT_EQ(stop_reason_from_counter(2.5), std::nullopt);
  EXPECT_EQ(stop_reason_from_counter(1e300), std::nullopt);
}

// The default shares its measuring among the run's cases: one GPU's run (634 cases on 16 cores)
// 0.3 s each, a host-only run of 63 cases 0.5 s, a run of thousands (six GPUs) never under 0.3 s.
TEST(StoppingRule, TheDefaultSharesItsMeasuringAmongTheRunsCases) {
  EXPECT_NEAR(preset_stopping_rule(Preset::standard, 634).max_seconds, 0.3, 1e-3);
  EXPECT_NEAR(preset_stopping_rule(Preset::standard, 500).max_seconds, 0.38, 1e-12);
  EXPECT_DOUBLE_EQ(preset_stopping_rule(Preset::standard, 63).max_seconds, 0.5);
  EXPECT_DOUBLE_EQ(preset_stopping_rule(Preset::standard, 0).max_seconds, 0.5);
  EXPECT_DOUBLE_EQ(preset_stopping_rule(Preset::standard, 3000).max_seconds, 0.3);
}

}  // namespace
}  // namespace h2d
