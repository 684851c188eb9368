#include "harness/core/run_shift.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

namespace h2d {
namespace {

TEST(RunShift, LogRatioOfGeometricMeansWithPooledSpread) {
  const RunShift shift = run_shift({100, 102, 98}, {110, 112.2, 107.8});
  EXPECT_NEAR(shift.log_shift, std::log(1.1), 1e-12);  // each run 10% higher
  EXPECT_DOUBLE_EQ(shift.pooled.df, 4);
  const double m = (std::log(100.0) + std::log(102.0) + std::log(98.0)) / 3;
  const double squares = std::pow(std::log(100.0) - m, 2) + std::pow(std::log(102.0) - m, 2) +
                         std::pow(std::log(98.0) - m, 2);
  EXPECT_NEAR(shift.pooled.variance, 2 * squares / 4, 1e-12);
  EXPECT_NEAR(shift.standard_factor, std::sqrt(2.0 / 3), 1e-12);
  EXPECT_THROW(run_shift({}, {1}), std::invalid_argument);
  EXPECT_THROW(run_shift({1, -1}, {1}), std::invalid_argument);
}

TEST(RunShift, TestAgainstTheBand) {
  const double band = std::log(1.05);
  const RunShift up = run_shift({100, 102, 98}, {130, 132.6, 127.4});
  const ShiftTest above = test_shift(up, up.pooled, -band, band, 0.95);
  EXPECT_LT(above.p_above, 0.001);  // 30% up with 2% spread: well beyond +5%
  EXPECT_GT(above.p_below, 0.999);
  EXPECT_LT(above.low, up.log_shift);
  EXPECT_GT(above.high, up.log_shift);
  // The interval is the t interval: shift +- t(0.975, 4) * se.
  const double se = std::sqrt(up.pooled.variance) * up.standard_factor;
  EXPECT_NEAR(above.high - up.log_shift, 2.77645 * se, 1e-4 * se);

  const RunShift noisy = run_shift({100, 120, 85}, {110, 132, 93.5});  // +10% within 20% noise
  const ShiftTest unclear = test_shift(noisy, noisy.pooled, -band, band, 0.95);
  EXPECT_GT(unclear.p_above, 0.05);
  EXPECT_GT(unclear.p_below, 0.05);
  EXPECT_THROW(test_shift(run_shift({1}, {2}), {0, 0}, -band, band, 0.95), std::invalid_argument);
}

}  // namespace
}  // namespace h2d
