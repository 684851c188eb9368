// What a run hands every case (CaseContext), made from its options: no process globals.

#include <gtest/gtest.h>

#include "benchmarks/commands/suite.hpp"
#include "harness/cli/run_options.hpp"

namespace h2d {
namespace {

TEST(CaseContext, ThePresetGivesTheStoppingRuleAndProfileModeAnExactCount) {
  const CaseContext quick =
      case_context(parse_run_options({"--preset", "quick"}, false), RunPlan{}, 1);
  EXPECT_DOUBLE_EQ(quick.stopping_rule.max_seconds,
                   preset_stopping_rule(Preset::quick, 1).max_seconds);
  EXPECT_EQ(quick.stopping_rule.exact_measurements, 0u);
  const CaseContext profile = case_context(parse_run_options({"--profile"}, false), RunPlan{}, 1);
  EXPECT_GT(profile.stopping_rule.exact_measurements, 0u);
}

TEST(CaseContext, EachRunHasItsOwnTimeBankExceptInProfileMode) {
  const RunOptions options = parse_run_options({}, false);
  const CaseContext first = case_context(options, RunPlan{}, 1);
  const CaseContext second = case_context(options, RunPlan{}, 1);
  ASSERT_NE(first.stopping_rule.bank, nullptr) << "steady cases lend their time to noisy ones";
  EXPECT_NE(first.stopping_rule.bank, second.stopping_rule.bank) << "a run's own, not a global";
  EXPECT_DOUBLE_EQ(first.stopping_rule.bank->balance(), 0) << "nothing lent before a case ran";
  const CaseContext profile = case_context(parse_run_options({"--profile"}, false), RunPlan{}, 1);
  EXPECT_EQ(profile.stopping_rule.bank, nullptr) << "a fixed count: nothing to lend or take";
}

TEST(CaseContext, MinimumTimeAndWatchdogComeFromTheirFlags) {
  const CaseContext plain = case_context(parse_run_options({}, false), RunPlan{}, 1);
  EXPECT_DOUBLE_EQ(plain.stopping_rule.min_seconds, 0);
  EXPECT_DOUBLE_EQ(plain.pipeline_watchdog.count(), 30) << "the default stall timeout";
  const CaseContext asked = case_context(
      parse_run_options({"--watchdog", "2m", "--benchmark_min_time=0.5s"}, false), RunPlan{}, 1);
  EXPECT_DOUBLE_EQ(asked.stopping_rule.min_seconds, 0.5);
  EXPECT_DOUBLE_EQ(asked.pipeline_watchdog.count(), 120);
}

TEST(CaseContext, CasesDecodeThePlansImageSet) {
  const RunPlan plan;
  const CaseContext context = case_context(parse_run_options({}, false), plan, 1);
  EXPECT_EQ(context.images, plan.images) << "one set for the plan, the cases and the report";
  EXPECT_EQ(context.images->used(), nullptr) << "the generated set is made when a case asks";
}

}  // namespace
}  // namespace h2d
