#include "harness/report/verdict.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace h2d {
namespace {

Repetitions reps(std::vector<double> values) {
  Repetitions r;
  r.count = values.size();
  r.values = std::move(values);
  return r;
}

const VerdictOptions kDefaults{};

TEST(Verdict, SmallChangeIsSameAndReliableOnlyWithRepetitions) {
  const Judgement repeated =
      judge(reps({10, 10.1, 9.9}), reps({10.2, 10.3, 10.1}), Better::higher, kDefaults);
  EXPECT_EQ(repeated.verdict, Verdict::same);
  EXPECT_TRUE(repeated.reliable);
  const Judgement single = judge(reps({10}), reps({10.2}), Better::higher, kDefaults);
  EXPECT_EQ(single.verdict, Verdict::same);
  EXPECT_FALSE(single.reliable);
}

TEST(Verdict, SingleMeasurementGivesDirectionButUnreliable) {
  const Judgement j = judge(reps({10}), reps({20}), Better::higher, kDefaults);
  EXPECT_EQ(j.verdict, Verdict::faster);
  EXPECT_FALSE(j.reliable);
  EXPECT_DOUBLE_EQ(j.speedup, 2.0);
  EXPECT_DOUBLE_EQ(j.ratio, 2.0);
}

// Reports since the stopping rule have one repetition a case, each with the 95% interval of its
// median (rel_ci_pct): two such medians are apart only when their intervals are.
TEST(Verdict, OneRepetitionEachWithItsIntervalIsJudgedByTheIntervals) {
  const auto with_interval = [](double value, double half) {
    Repetitions r = reps({value});
    r.half_interval = half;
    return r;
  };
  const Judgement apart =
      judge(with_interval(10, 0.2), with_interval(12, 0.3), Better::higher, kDefaults);
  EXPECT_EQ(apart.verdict, Verdict::faster);
  EXPECT_TRUE(apart.reliable);
  EXPECT_EQ(apart.reason, "medians' 95% intervals apart (+-2%/+-2.5%)");
  const Judgement overlap =
      judge(with_interval(10, 1.2), with_interval(12, 1.0), Better::higher, kDefaults);
  EXPECT_EQ(overlap.verdict, Verdict::same) << "12 - 1.0 <= 10 + 1.2";
  EXPECT_TRUE(overlap.reliable);
  const Judgement small =
      judge(with_interval(10, 0.1), with_interval(10.2, 0.1), Better::higher, kDefaults);
  EXPECT_EQ(small.verdict, Verdict::same);
  EXPECT_TRUE(small.reliable) << "below the threshold, with the noise known on both sides";
  const Judgement one_sided = judge(with_interval(10, 0.2), reps({12}), Better::higher, kDefaults);
  EXPECT_EQ(one_sided.verdict, Verdict::faster);
  EXPECT_FALSE(one_sided.reliable) << "a side without its interval: noise unknown";
}

TEST(Verdict, TimesAreLowerIsBetter) {
  const Judgement j = judge(reps({10}), reps({20}), Better::lower, kDefaults);
  EXPECT_EQ(j.verdict, Verdict::slower);
  EXPECT_DOUBLE_EQ(j.ratio, 2.0);
  EXPECT_DOUBLE_EQ(j.speedup, 0.5);
}

TEST(Verdict, UTestDecidesWithFiveRepetitions) {
  const Judgement apart = judge(reps({10, 10.1, 10.2, 9.9, 10.05}),
                                reps({11.3, 11.4, 11.35, 11.5, 11.45}), Better::higher, kDefaults);
  EXPECT_EQ(apart.verdict, Verdict::faster);
  EXPECT_TRUE(apart.reliable);
  ASSERT_TRUE(apart.p_value.has_value());
  EXPECT_NEAR(*apart.p_value, 0.012185780355344813, 1e-12);  // scipy, as above

  // Medians 20% apart but the repetitions interleave: noise, not a difference.
  const Judgement noisy =
      judge(reps({8, 12, 9, 14, 10}), reps({12, 7, 15, 11, 13}), Better::higher, kDefaults);
  EXPECT_EQ(noisy.verdict, Verdict::same);
  EXPECT_TRUE(noisy.reliable);
  ASSERT_TRUE(noisy.p_value.has_value());
  EXPECT_GT(*noisy.p_value, 0.05);
}

TEST(Verdict, FewRepetitionsUseTheirRanges) {
  const Judgement apart =
      judge(reps({10, 10.2, 9.8}), reps({8, 8.1, 7.9}), Better::higher, kDefaults);
  EXPECT_EQ(apart.verdict, Verdict::slower);
  EXPECT_TRUE(apart.reliable);
  const Judgement overlapping =
      judge(reps({10, 12, 8}), reps({8.5, 9, 11}), Better::higher, kDefaults);
  EXPECT_EQ(overlapping.verdict, Verdict::same);
  EXPECT_TRUE(overlapping.reliable);
}

TEST(Verdict, AggregatesOnlyUseTheirStddev) {
  Repetitions base = reps({10});
  base.count = 3;
  base.stddev = 0.1;
  Repetitions wide = reps({11});
  wide.count = 3;
  wide.stddev = 2.0;
  EXPECT_EQ(judge(base, wide, Better::higher, kDefaults).verdict, Verdict::same);
  Repetitions tight = reps({11});
  tight.count = 3;
  tight.stddev = 0.1;
  const Judgement j = judge(base, tight, Better::higher, kDefaults);
  EXPECT_EQ(j.verdict, Verdict::faster);
  EXPECT_TRUE(j.reliable);
}

TEST(Verdict, ThresholdIsConfigurable) {
  VerdictOptions strict;
  strict.threshold_pct = 1;
  EXPECT_EQ(judge(reps({100}), reps({97}), Better::higher, strict).verdict, Verdict::slower);
  EXPECT_EQ(judge(reps({100}), reps({97}), Better::higher, kDefaults).verdict, Verdict::same);
}

TEST(Verdict, RefusesEmptyOrNonPositive) {
  EXPECT_THROW(judge(reps({}), reps({1}), Better::higher, kDefaults), std::invalid_argument);
  EXPECT_THROW(judge(reps({0}), reps({1}), Better::higher, kDefaults), std::invalid_argument);
}

}  // namespace
}  // namespace h2d
