#include "harness/core/statistics.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "harness/core/median_interval.hpp"

namespace h2d {
namespace {

TEST(Statistics, OddSampleMedianAndSpread) {
  const SampleStats s = summarize({5, 1, 3});
  EXPECT_EQ(s.count, 3u);
  EXPECT_DOUBLE_EQ(s.median, 3);
  EXPECT_DOUBLE_EQ(s.mean, 3);
  EXPECT_DOUBLE_EQ(s.stdev, 2);  // sample stdev: sqrt((4+0+4)/2)
  EXPECT_DOUBLE_EQ(s.cv, 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 5);
  EXPECT_DOUBLE_EQ(s.p99, 5);
}

TEST(Statistics, EvenSampleMedianAveragesTheMiddlePair) {
  EXPECT_DOUBLE_EQ(summarize({4, 1, 3, 2}).median, 2.5);
}

TEST(Statistics, SingleSampleHasNoSpread) {
  const SampleStats s = summarize({7});
  EXPECT_DOUBLE_EQ(s.stdev, 0);
  EXPECT_DOUBLE_EQ(s.cv, 0);
  EXPECT_DOUBLE_EQ(s.p99, 7);
}

TEST(Statistics, NearestRankPercentile) {
  std::vector<double> hundred;
  for (int i = 1; i <= 100; ++i) {
    hundred.push_back(i);
  }
  EXPECT_DOUBLE_EQ(percentile(hundred, 99), 99);
  EXPECT_DOUBLE_EQ(percentile(hundred, 50), 50);
  EXPECT_DOUBLE_EQ(percentile(hundred, 100), 100);
  EXPECT_DOUBLE_EQ(percentile({3, 1, 2}, 1), 1);
}

// The distribution-free interval of the median: ranks from the binomial, narrowing with n.
TEST(Statistics, MedianIntervalFromOrderStatistics) {
  std::vector<double> hundred;
  for (int i = 100; i >= 1; --i) {
    hundred.push_back(i);  // order does not matter
  }
  const MedianInterval wide = median_interval(hundred);
  EXPECT_TRUE(wide.covers_95);
  EXPECT_EQ(wide.measurements, 100u);
  EXPECT_DOUBLE_EQ(wide.median, 50.5);
  EXPECT_DOUBLE_EQ(wide.low, 40);  // x(40) and x(61): the textbook ranks for n = 100
  EXPECT_DOUBLE_EQ(wide.high, 61);
  EXPECT_NEAR(wide.relative_half_width_pct(), 10.5 / 50.5 * 100, 1e-9);

  const MedianInterval six = median_interval({6, 1, 5, 2, 4, 3});
  EXPECT_TRUE(six.covers_95);  // x(1)..x(6): 1 - 2/64 = 96.9%
  EXPECT_DOUBLE_EQ(six.low, 1);
  EXPECT_DOUBLE_EQ(six.high, 6);
  const MedianInterval five = median_interval({5, 1, 4, 2, 3});
  EXPECT_FALSE(five.covers_95) << "no pair of ranks of 5 reaches 95%";
  EXPECT_DOUBLE_EQ(five.low, 1);
  EXPECT_DOUBLE_EQ(five.high, 5);
  EXPECT_DOUBLE_EQ(median_interval({7}).relative_half_width_pct(), 0);
  EXPECT_DOUBLE_EQ(median_interval({0, 0, 0}).relative_half_width_pct(), 0);

  // The same spread, 16 times the samples: about a quarter of the width (the cv stays put).
  std::vector<double> few;
  std::vector<double> many;
  for (int i = 0; i < 25; ++i) {
    few.push_back(100 + (i % 5) - 2);
  }
  for (int i = 0; i < 400; ++i) {
    many.push_back(100 + (i % 5) - 2 + (i % 7) * 1e-3);
  }
  EXPECT_GT(median_interval(few).relative_half_width_pct(),
            median_interval(many).relative_half_width_pct());
  EXPECT_THROW(median_interval({}), std::invalid_argument);
}

TEST(Statistics, EmptyOrBadInputThrows) {
  EXPECT_THROW(summarize({}), std::invalid_argument);
  EXPECT_THROW(percentile({}, 50), std::invalid_argument);
  EXPECT_THROW(percentile({1}, 0), std::invalid_argument);
  EXPECT_THROW(percentile({1}, 101), std::invalid_argument);
}

}  // namespace
}  // namespace h2d
