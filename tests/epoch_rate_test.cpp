#include "harness/pipeline/epoch_rate.hpp"

#include <gtest/gtest.h>

namespace {

// Nine epochs of 100 ms and one of 200 ms, 1,600 samples each: the reported rate is the median
// epoch's, 16,000 samples/s, the figure the median epoch's interval belongs to; total samples over
// total time would say 14,545 (9% lower) with the same interval.
TEST(EpochRate, TheLoopsRateIsTheMedianEpochsNotTheMeanOverTheWindow) {
  std::vector<h2d::EpochSpan> epochs(9, {1600, 0.100});
  epochs.push_back({1600, 0.200});
  EXPECT_DOUBLE_EQ(h2d::median_epoch_rate(epochs), 16000.0);
  double samples = 0;
  double seconds = 0;
  for (const auto& epoch : epochs) {
    samples += static_cast<double>(epoch.samples);
    seconds += epoch.window_s;
  }
  EXPECT_NEAR(samples / seconds, 14545.45, 0.01);  // what the mean said
}

TEST(EpochRate, NoEpochOrAnEmptyWindowGivesNoRate) {
  EXPECT_EQ(h2d::median_epoch_rate({}), 0.0);
  EXPECT_EQ(h2d::median_epoch_rate({{16, 0.0}}), 0.0);
}

}  // namespace
