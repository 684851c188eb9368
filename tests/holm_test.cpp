#include "harness/core/holm.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace h2d {
namespace {

TEST(Holm, StepsDownAndKeepsTheOrderGiven) {
  // Sorted: 0.005 x4 = 0.02, 0.01 x3 = 0.03, 0.03 x2 = 0.06, 0.04 x1 = 0.04 -> 0.06 (monotone).
  const std::vector<double> adjusted = holm_adjust({0.01, 0.04, 0.03, 0.005});
  ASSERT_EQ(adjusted.size(), 4u);
  EXPECT_DOUBLE_EQ(adjusted[0], 0.03);
  EXPECT_DOUBLE_EQ(adjusted[1], 0.06);
  EXPECT_DOUBLE_EQ(adjusted[2], 0.06);
  EXPECT_DOUBLE_EQ(adjusted[3], 0.02);
  EXPECT_DOUBLE_EQ(holm_adjust({0.5, 0.9})[1], 1.0);  // capped at 1
  EXPECT_TRUE(holm_adjust({}).empty());
  EXPECT_THROW(holm_adjust({1.5}), std::invalid_argument);
}

}  // namespace
}  // namespace h2d
