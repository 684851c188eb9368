// The time bank: steady cases lend what they left of their cap, noisy cases that can know their
// median with it take it, loops that ran past their cap pay it back, and the run measures no
// longer than its timed loops times the cap plus the overrun it reports.

#include "harness/core/time_bank.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "harness/core/median_interval.hpp"
#include "harness/core/stopping_check.hpp"
#include "tests/sample_patterns.hpp"

namespace h2d {
namespace {

using h2d_test::alternating_samples;
using h2d_test::steady_samples;

// Evenly spread over 0.95..1.05 whatever n is: the median's interval narrows as 1/sqrt(n), from
// about 1.5% at 40 samples.
std::vector<double> spread(std::size_t n) {
  std::vector<double> samples;
  for (std::size_t i = 0; i < n; ++i) {
    const double u = static_cast<double>((i * 37) % 101) / 100.0;  // 0..1, a permutation
    samples.push_back(0.95 + 0.1 * u);
  }
  return samples;
}

StoppingRule banked_rule(double balance_s) {
  StoppingRule rule;  // 1% target, 0.3 s cap, 10 caps at most
  rule.bank = std::make_shared<TimeBank>();
  rule.bank->deposit(balance_s);
  return rule;
}

TEST(TimeBank, WithdrawsAllOrNothing) {
  TimeBank bank;
  bank.deposit(0.5);
  bank.deposit(-1);  // a case that ran past its cap lends nothing, and owes nothing
  EXPECT_DOUBLE_EQ(bank.balance(), 0.5);
  EXPECT_FALSE(bank.withdraw(0.6));
  EXPECT_DOUBLE_EQ(bank.balance(), 0.5) << "a refused withdrawal takes nothing";
  EXPECT_TRUE(bank.withdraw(0.2));
  EXPECT_DOUBLE_EQ(bank.balance(), 0.3);
  EXPECT_FALSE(bank.withdraw(-0.1));
}

TEST(TimeBank, ProjectsTheTimeToTheTargetFromTheInterval) {
  MedianInterval interval;
  interval.median = 1.0;
  interval.low = 0.97;
  interval.high = 1.02;  // the larger side: 3%
  interval.covers_95 = true;
  ASSERT_NEAR(interval.relative_half_width_pct(), 3.0, 1e-9);
  // Half-width ~ 1/sqrt(time): 3% -> 1% takes 9 times as long.
  EXPECT_NEAR(projected_seconds(1.0, interval, 0.3).value(), 2.7, 1e-9);
  interval.covers_95 = false;  // under 6 samples: nothing to project from
  EXPECT_EQ(projected_seconds(1.0, interval, 0.3), std::nullopt);
}

TEST(TimeBank, ASteadyCaseLendsWhatItLeftOfItsCap) {
  const StoppingRule rule = banked_rule(0);
  StoppingCheck check(rule);
  EXPECT_EQ(check.after(steady_samples(10), 0.05), StopReason::median_known);
  EXPECT_NEAR(rule.bank->balance(), 0.25, 1e-12) << "0.3 s cap, 0.05 s used";
}

TEST(TimeBank, ANoisyCaseThatCanKnowItsMedianTakesTheTimeAndGivesBackTheRest) {
  const StoppingRule rule = banked_rule(5);
  StoppingCheck check(rule);
  const std::vector<double> at_cap = spread(40);
  const MedianInterval interval = median_interval(at_cap, rule.interval_confidence);
  ASSERT_GT(interval.relative_half_width_pct(), 1.0);
  const double needed_s = projected_seconds(1.0, interval, 0.3).value();
  ASSERT_GT(needed_s, 0.6);
  ASSERT_LT(needed_s, 3.0) << "within 10 caps";

  EXPECT_EQ(check.after(at_cap, 0.3), StopReason::measuring) << "it took time from the bank";
  EXPECT_NEAR(check.cap_seconds(), needed_s, 1e-9);
  EXPECT_NEAR(rule.bank->balance(), 5 - (needed_s - 0.3), 1e-9);

  // Its median is known sooner than projected: what it did not use goes back.
  std::vector<double> known = at_cap;
  const std::vector<double> more = steady_samples(4000);
  known.insert(known.end(), more.begin(), more.end());
  EXPECT_EQ(check.after(known, 0.6), StopReason::median_known);
  EXPECT_NEAR(rule.bank->balance(), 5 - (0.6 - 0.3), 1e-9) << "it used 0.3 s past its cap";
}

TEST(TimeBank, ACaseTheBankCannotHelpStopsAtItsCapAndTakesNothing) {
  {
    const StoppingRule rule = banked_rule(100);
    StoppingCheck check(rule);
    EXPECT_EQ(check.after(alternating_samples(200), 0.3), StopReason::time_cap)
        << "no time makes 1 and 2 alternating a known median";
    EXPECT_DOUBLE_EQ(rule.bank->balance(), 100);
  }
  {
    const StoppingRule rule = banked_rule(0.1);  // less than spread(40) needs
    StoppingCheck check(rule);
    EXPECT_EQ(check.after(spread(40), 0.3), StopReason::time_cap);
    EXPECT_DOUBLE_EQ(rule.bank->balance(), 0.1);
  }
  {
    StoppingRule rule = banked_rule(100);
    rule.most_cap_multiple = 1;  // a rule that lends nothing beyond the cap
    StoppingCheck check(rule);
    EXPECT_EQ(check.after(spread(40), 0.3), StopReason::time_cap);
    EXPECT_DOUBLE_EQ(rule.bank->balance(), 100);
  }
}

TEST(TimeBank, UnderTheFloorTheMissingMeasurementsComeFirst) {
  // Long measurements (a pipeline's epochs): 7 at the cap, steady, but the floor is 10.
  const StoppingRule rule = banked_rule(5);
  StoppingCheck check(rule);
  EXPECT_EQ(check.after(steady_samples(7), 0.35), StopReason::measuring);
  EXPECT_NEAR(check.cap_seconds(), 0.5, 1e-9) << "10 measurements at 0.05 s each";
  EXPECT_EQ(check.after(steady_samples(10), 0.5), StopReason::median_known);
  EXPECT_NEAR(rule.bank->balance(), 5 - 0.2, 1e-9);
}

TEST(TimeBank, AnOverrunIsPaidFromTheBalanceAndTheRestKept) {
  TimeBank bank;
  bank.deposit(0.5);
  bank.charge_overrun(0.2);
  EXPECT_DOUBLE_EQ(bank.balance(), 0.3);
  EXPECT_EQ(bank.overruns(), 0u) << "paid in full: the bound holds";
  bank.charge_overrun(0.5);
  EXPECT_DOUBLE_EQ(bank.balance(), 0);
  EXPECT_DOUBLE_EQ(bank.overrun_s(), 0.2);
  EXPECT_EQ(bank.overruns(), 1u);
  bank.charge_overrun(-1);
  bank.charge_overrun(0);
  EXPECT_EQ(bank.overruns(), 1u);
}

TEST(TimeBank, ALoopThatRanPastItsCapIsCharged) {
  const StoppingRule rule = banked_rule(0.1);
  StoppingCheck check(rule);
  // Three long measurements: the last ended 0.2 s past the 0.3 s cap.
  EXPECT_NE(check.after(steady_samples(3), 0.5), StopReason::measuring);
  EXPECT_DOUBLE_EQ(rule.bank->balance(), 0);
  EXPECT_NEAR(rule.bank->overrun_s(), 0.1, 1e-12);
  EXPECT_EQ(rule.bank->overruns(), 1u);
}

// Whatever the loops do, the run measures no longer than its loops times the cap plus the
// overrun the bank reports.
TEST(TimeBank, TheRunsMeasuringStaysWithinItsBoundPlusTheReportedOverrun) {
  const StoppingRule rule = banked_rule(0);
  double measured_s = 0;
  std::size_t loops = 0;
  for (int i = 0; i < 60; ++i, ++loops) {
    StoppingCheck check(rule);
    double elapsed_s = 0;
    StopReason reason = StopReason::measuring;
    if (i % 3 == 0) {  // steady: lends most of its cap
      elapsed_s = 0.04;
      reason = check.after(steady_samples(10), elapsed_s);
    } else if (i % 3 == 1) {  // noisy: may borrow, then stops where it can
      elapsed_s = 0.3;
      reason = check.after(spread(40), elapsed_s);
      while (reason == StopReason::measuring) {
        elapsed_s += 0.1;
        reason = check.after(spread(40 + static_cast<std::size_t>(elapsed_s * 100)), elapsed_s);
      }
    } else {  // one measurement longer than the cap
      elapsed_s = 0.9;
      reason = check.after(steady_samples(3), elapsed_s);
    }
    ASSERT_NE(reason, StopReason::measuring);
    measured_s += elapsed_s;
  }
  EXPECT_GT(rule.bank->overrun_s(), 0) << "the long loops outran what the steady ones left";
  EXPECT_LE(measured_s,
            static_cast<double>(loops) * rule.cap_seconds() + rule.bank->overrun_s() + 1e-9);
  EXPECT_NEAR(measured_s,
              static_cast<double>(loops) * rule.cap_seconds() + rule.bank->overrun_s() -
                  rule.bank->balance(),
              1e-9)
      << "every second is the cap's, the bank's, or the reported overrun";
}

TEST(TimeBank, ProfileModeNeitherLendsNorTakes) {
  StoppingRule rule = banked_rule(1);
  rule.exact_measurements = 3;
  StoppingCheck check(rule);
  EXPECT_EQ(check.after(alternating_samples(3), 0.01), StopReason::exact_count);
  EXPECT_DOUBLE_EQ(rule.bank->balance(), 1);
}

}  // namespace
}  // namespace h2d
