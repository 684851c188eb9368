#include "harness/core/student_t.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace h2d {
namespace {

// Critical values from printed t tables (two-sided 95%: 12.706 at 1 df, 2.776 at 4, 1.960 for
// the normal).
TEST(StudentT, TailsMatchTheTables) {
  EXPECT_NEAR(student_t_upper_tail(12.7062, 1), 0.025, 1e-5);
  EXPECT_NEAR(student_t_upper_tail(2.77645, 4), 0.025, 1e-5);
  EXPECT_NEAR(student_t_upper_tail(7.17318, 4), 0.001, 1e-6);
  EXPECT_NEAR(student_t_upper_tail(1.95996, 1e12), 0.025, 1e-5);
  EXPECT_DOUBLE_EQ(student_t_upper_tail(0, 3.5), 0.5);
  EXPECT_NEAR(student_t_upper_tail(-2.77645, 4), 0.975, 1e-5);
  EXPECT_GT(student_t_upper_tail(2, 4.5), student_t_upper_tail(2, 5));  // fractional df in order
}

TEST(StudentT, QuantileInvertsTheTail) {
  EXPECT_NEAR(student_t_quantile_upper(0.025, 4), 2.77645, 1e-4);
  EXPECT_NEAR(student_t_quantile_upper(0.975, 4), -2.77645, 1e-4);
  EXPECT_NEAR(student_t_quantile_upper(0.025, 1), 12.7062, 1e-3);
  EXPECT_THROW(student_t_quantile_upper(0, 4), std::invalid_argument);
  EXPECT_THROW(student_t_upper_tail(1, 0), std::invalid_argument);
}

}  // namespace
}  // namespace h2d
