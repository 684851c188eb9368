// How well a case knows the figure it reports, where its stopping rule timed a larger whole: the
// h2d/batch worked example (a steady 9 ms of preparation around a 1 ms copy that varies by 20%).

#include <gtest/gtest.h>

#include <random>

#include "harness/core/median_interval.hpp"
#include "harness/core/sample_series.hpp"
#include "harness/core/stopping_rule.hpp"
#include "harness/report/case_noise.hpp"
#include "harness/report/report_cases.hpp"
#include "report_builder.hpp"

namespace h2d {
namespace {

constexpr double kPayloadBytes = 12.0e6;  // 12 GB/s at the copy's 1 ms

// Batches as h2d/batch records them: the batch's time (what the stopping rule measures) and the
// copy segment's rate (what the family reports).
SampleSeries batches_around_a_noisy_copy(int count) {
  std::mt19937 random(7);
  std::uniform_real_distribution<double> copy_noise(-0.2, 0.2);
  SampleSeries series;
  for (int i = 0; i < count; ++i) {
    const double copy_s = 1e-3 * (1 + copy_noise(random));
    series.add("batch", 9e-3 + copy_s);
    series.add("GB_per_s", kPayloadBytes / copy_s / 1e9);
  }
  return series;
}

TEST(FigureInterval, TheCopyRateOfABatchIsKnownFarLessWellThanTheBatch) {
  const SampleSeries series = batches_around_a_noisy_copy(60);
  const double batch =
      series.interval("batch", kStoppedIntervalConfidence).relative_half_width_pct();
  const double copy =
      series.interval("GB_per_s", kStoppedIntervalConfidence).relative_half_width_pct();
  EXPECT_LT(batch, 1.5) << "the batch's median is known: the rule stops";
  EXPECT_GT(copy, 4 * batch) << "batch ±" << batch << "%, copy ±" << copy << "%";
}

TEST(FigureInterval, TheVerdictsTieReadsTheFiguresOwnInterval) {
  testing::ReportBuilder builder("a");
  builder.add("h2d/batch/task=train/layout=tuple/pin=none/batch=16", "GB_per_s", {12},
              {{"rel_ci_pct", 0.4},
               {figure_interval_counter("GB_per_s"), 6.0},
               {"measurements", 60},
               {"samples_per_s", 1600}});
  builder.add("h2d/memory/dir=h2d/kind=pinned/mode=async/bytes=1MiB", "GB_per_s", {50},
              {{"rel_ci_pct", 0.5}, {"measurements", 40}});
  const auto cases = collect_cases(builder.json());
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_DOUBLE_EQ(*within_run_half_interval(cases[0], "GB_per_s"), 0.06 * 12);
  EXPECT_DOUBLE_EQ(*within_run_half_interval(cases[0], "samples_per_s"), 0.004 * 1600)
      << "the batch's own figures keep the stopping rule's interval";
  EXPECT_DOUBLE_EQ(*within_run_half_interval(cases[1], "GB_per_s"), 0.005 * 50);
}

}  // namespace
}  // namespace h2d
