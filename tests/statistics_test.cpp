#include "harness/core/statistics.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

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

TEST(Statistics, EmptyOrBadInputThrows) {
  EXPECT_THROW(summarize({}), std::invalid_argument);
  EXPECT_THROW(percentile({}, 50), std::invalid_argument);
  EXPECT_THROW(percentile({1}, 0), std::invalid_argument);
  EXPECT_THROW(percentile({1}, 101), std::invalid_argument);
}

}  // namespace
}  // namespace h2d
