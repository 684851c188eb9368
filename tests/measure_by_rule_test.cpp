// A yardstick measured under a case's stopping rule, and the check that asks the rule sparingly.

#include "harness/core/measure_by_rule.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <vector>

#include "harness/core/stopping_check.hpp"

namespace h2d {
namespace {

TEST(MeasureByRule, ASteadyYardstickStopsAtTheRulesFloor) {
  StoppingRule rule;
  rule.max_seconds = 60;  // only the interval may stop it
  int calls = 0;
  const std::vector<double> seconds = measure_by_rule(rule, [&] {
    ++calls;
    return 1.0;
  });
  EXPECT_EQ(seconds.size(), rule.min_measurements);
  EXPECT_EQ(calls, static_cast<int>(rule.min_measurements)) << "one call a measurement";
}

TEST(MeasureByRule, ANoisyYardstickMeasuresUntilTheTimeCap) {
  StoppingRule rule;
  rule.max_seconds = 0.02;
  int calls = 0;
  const auto started = std::chrono::steady_clock::now();
  const std::vector<double> seconds = measure_by_rule(rule, [&] {
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    return ++calls % 2 == 0 ? 1.0 : 2.0;  // the median's interval never narrows
  });
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_GE(elapsed, rule.max_seconds);
  EXPECT_GT(seconds.size(), rule.min_measurements) << "it went on past the floor";
  EXPECT_LT(elapsed, 10 * rule.max_seconds) << "and stopped at its cap";
}

TEST(MeasureByRule, ProfileModeTakesExactlyItsCount) {
  StoppingRule rule;
  rule.exact_measurements = 3;
  EXPECT_EQ(measure_by_rule(rule, [] { return 1.0; }).size(), 3u);
}

TEST(StoppingCheck, AsksTheRuleAtTheFloorThenAsTheCountGrowsByAnEighth) {
  StoppingRule rule;
  rule.max_seconds = 60;
  StoppingCheck check(rule);
  std::vector<double> samples;
  // Noisy until 40 measurements, then steady: the interval is only computed at 10, 11, 12, ...,
  // growing by n/8, so the check notices the now-known median at one of those counts, not sooner.
  for (int i = 0; i < 40; ++i) {
    samples.push_back(i % 2 == 0 ? 1.0 : 2.0);
    ASSERT_EQ(check.after(samples), StopReason::measuring) << "at " << samples.size();
  }
  std::size_t stopped_at = 0;
  while (stopped_at == 0 && samples.size() < 2000) {
    samples.push_back(1.0);
    if (check.after(samples) != StopReason::measuring) {
      stopped_at = samples.size();
    }
  }
  ASSERT_GT(stopped_at, 40u);
  // The check that stopped it came at most an eighth after the count where the rule would have.
  std::size_t first_known = 41;
  while (decide(rule, std::vector<double>(samples.begin(), samples.begin() + first_known), 0) ==
         StopReason::measuring) {
    ++first_known;
  }
  EXPECT_GE(stopped_at, first_known);
  EXPECT_LE(stopped_at, first_known + first_known / 8 + 1);
}

}  // namespace
}  // namespace h2d
