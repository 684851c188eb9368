#include "harness/core/statistics.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

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
  for (int i = 1; i <= 100; ++i) {
    hundred.push_back((37 * i) % 101);  // 1..100 in an order with no lag-1 correlation to widen for
  }
  const MedianInterval wide = median_interval(hundred);
  EXPECT_TRUE(wide.covers_95);
  EXPECT_EQ(wide.measurements, 100u);
  EXPECT_DOUBLE_EQ(wide.median, 50.5);
  // x(40)..x(61), the textbook ranks for n = 100, cover 96.5% and x(41)..x(60) 94.3%: each end
  // moves 0.7632 of the way in (Hettmansperger and Sheather's weight for n = 100, d = 40).
  EXPECT_NEAR(wide.low, 40.7632006, 1e-6);
  EXPECT_NEAR(wide.high, 60.2367994, 1e-6);
  EXPECT_NEAR(wide.relative_half_width_pct(), (50.5 - 40.7632006) / 50.5 * 100, 1e-5);

  const MedianInterval six = median_interval({6, 1, 5, 2, 4, 3});
  EXPECT_TRUE(six.covers_95);  // x(1)..x(6): 1 - 2/64 = 96.9%; x(2)..x(5): 78.1%
  EXPECT_NEAR(six.low, 1 + 5.0 / 14, 1e-9);
  EXPECT_NEAR(six.high, 6 - 5.0 / 14, 1e-9);
  const MedianInterval two_ranks = median_interval({1, 13, 2, 12, 3, 11, 4, 10, 5, 9, 6, 8, 7});
  EXPECT_TRUE(two_ranks.covers_95);  // x(3)..x(11): 97.8%; x(4)..x(10): 90.8%
  EXPECT_GT(two_ranks.low, 3);
  EXPECT_LT(two_ranks.low, 4);
  EXPECT_NEAR(two_ranks.high, 14 - two_ranks.low, 1e-9) << "symmetric ranks";
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

// The interval means what it says: over many draws of timings (exponential: skewed, as slow
// outliers make them), about 95% of the intervals hold the true median, not 98% as the
// order statistics alone give at 10 and 16 samples, and not fewer.
TEST(Statistics, MedianIntervalCoversTheMedianInAbout95PercentOfDraws) {
  std::mt19937_64 draw(32);
  std::exponential_distribution<double> timing(1.0);
  const double true_median = std::log(2.0);
  constexpr int kDraws = 4000;  // the coverage's standard error: 0.34 points
  for (std::size_t n : {10u, 16u, 30u, 64u}) {
    int covered = 0;
    for (int i = 0; i < kDraws; ++i) {
      std::vector<double> samples(n);
      for (double& sample : samples) {
        sample = timing(draw);
      }
      const MedianInterval interval = median_interval(samples);
      covered += interval.low <= true_median && true_median <= interval.high ? 1 : 0;
    }
    const double coverage = static_cast<double>(covered) / kDraws;
    EXPECT_GT(coverage, 0.935) << n << " samples";
    EXPECT_LT(coverage, 0.965) << n << " samples";
  }
}

// Samples that lean on the one before (lag-1 correlation 0.5, as back-to-back copies sharing a
// cache or a clock state can): the order statistics alone would cover the median about 72% of the
// time; widened for the measured correlation, about 95% again.
TEST(Statistics, MedianIntervalWidensForCorrelatedSamples) {
  std::mt19937_64 draw(33);
  std::normal_distribution<double> step(0, 1);
  constexpr int kDraws = 2000;
  for (std::size_t n : {64u, 200u}) {
    int covered = 0;
    int covered_shuffled = 0;
    for (int i = 0; i < kDraws; ++i) {
      std::vector<double> samples(n);
      double x = step(draw) / std::sqrt(0.75);  // stationary: variance 1 / (1 - 0.25)
      for (double& sample : samples) {
        sample = 100 + x;
        x = 0.5 * x + step(draw);
      }
      const MedianInterval interval = median_interval(samples);
      covered += interval.low <= 100 && 100 <= interval.high ? 1 : 0;
      std::shuffle(samples.begin(), samples.end(), draw);  // the same values, order lost
      const MedianInterval shuffled = median_interval(samples);
      covered_shuffled += shuffled.low <= 100 && 100 <= shuffled.high ? 1 : 0;
    }
    EXPECT_GT(static_cast<double>(covered) / kDraws, 0.92) << n << " samples";
    EXPECT_LT(static_cast<double>(covered_shuffled) / kDraws, 0.85) << n << " samples";
  }
}

TEST(Statistics, EmptyOrBadInputThrows) {
  EXPECT_THROW(summarize({}), std::invalid_argument);
  EXPECT_THROW(percentile({}, 50), std::invalid_argument);
  EXPECT_THROW(percentile({1}, 0), std::invalid_argument);
  EXPECT_THROW(percentile({1}, 101), std::invalid_argument);
}

}  // namespace
}  // namespace h2d
