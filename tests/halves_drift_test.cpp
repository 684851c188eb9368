#include "harness/core/halves_drift.hpp"

#include <gtest/gtest.h>

#include <random>

#include "harness/core/stopping_rule.hpp"

namespace h2d {
namespace {

constexpr double kTargetPct = 1.0;

std::vector<double> measured(std::mt19937& random, std::size_t count, double noise,
                             double second_half_factor) {
  std::normal_distribution<double> spread(1.0, noise);
  std::vector<double> samples;
  for (std::size_t i = 0; i < count; ++i) {
    samples.push_back(1e-3 * spread(random) * (i >= count / 2 ? second_half_factor : 1.0));
  }
  return samples;
}

TEST(HalvesDrift, ASteadyCaseIsRarelyFlagged) {
  std::mt19937 random(11);
  int flagged = 0;
  constexpr int kTrials = 1000;
  for (int trial = 0; trial < kTrials; ++trial) {
    const auto drift =
        halves_drift(measured(random, 40, 0.02, 1.0), kStoppedIntervalConfidence, kTargetPct);
    ASSERT_TRUE(drift.has_value());
    flagged += drift->drifting ? 1 : 0;
  }
  EXPECT_LE(flagged, kTrials / 100) << flagged << " of " << kTrials << " steady cases flagged";
}

TEST(HalvesDrift, AStepInTheMiddleIsFlaggedWithItsSize) {
  std::mt19937 random(12);
  int flagged = 0;
  for (int trial = 0; trial < 100; ++trial) {
    const auto drift =
        halves_drift(measured(random, 40, 0.01, 1.05), kStoppedIntervalConfidence, kTargetPct);
    ASSERT_TRUE(drift.has_value());
    EXPECT_NEAR(drift->shift_pct, 5.0, 1.5);
    flagged += drift->drifting ? 1 : 0;
  }
  EXPECT_GE(flagged, 95);
}

TEST(HalvesDrift, AShiftInsideThePrecisionAskedIsNotDrift) {
  std::mt19937 random(13);
  const auto drift =
      halves_drift(measured(random, 200, 0.0005, 1.005), kStoppedIntervalConfidence, kTargetPct);
  ASSERT_TRUE(drift.has_value());
  EXPECT_NEAR(drift->shift_pct, 0.5, 0.1);
  EXPECT_FALSE(drift->drifting) << "apart, but by less than the 1% the rule asked for";
}

TEST(HalvesDrift, NeedsSixMeasurementsAHalf) {
  EXPECT_FALSE(halves_drift(std::vector<double>(11, 1.0), 0.97, kTargetPct).has_value());
  const auto steady = halves_drift(std::vector<double>(12, 1.0), 0.97, kTargetPct);
  ASSERT_TRUE(steady.has_value());
  EXPECT_EQ(steady->shift_pct, 0);
  EXPECT_FALSE(steady->drifting);
  EXPECT_FALSE(halves_drift(std::vector<double>(12, 0.0), 0.97, kTargetPct).has_value());
}

}  // namespace
}  // namespace h2d
