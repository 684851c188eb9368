// compare's regression gate calibrated on simulated same-build runs: false alarms at most 5% per
// comparison of 56 cases, and a 15% regression in 5 of them found at least 80% of the time.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "harness/core/statistics.hpp"
#include "harness/report/run_verdict.hpp"
#include "harness/report/verdict.hpp"

namespace h2d {
namespace {

constexpr std::size_t kCases = 56;
constexpr std::size_t kNoisyCases = 10;  // the last ten: timer-bound small copies, loaders
constexpr std::size_t kRepetitions = 5;
constexpr std::size_t kComparisons = 400;
constexpr std::size_t kRegressedCases = 5;  // the first five: one family of quiet cases
constexpr double kRegression = 0.15;

// Noise as runs of the same build show it (magnitudes of the 2-core VM's host-only runs): each
// run lands somewhere (a case's own drift, 2% for most cases and 10% for noisy ones, plus a
// run-wide 1% all its cases share), and its repetitions wander around that with lag-1 correlation
// 0.5 (1% steps, 3% for noisy cases). Returns, per case, the repetitions of one run.
class SimulatedBuild {
 public:
  explicit SimulatedBuild(std::mt19937_64& random) : random_(random) {}

  std::vector<std::vector<double>> run(double regression) {
    const double run_wide = normal(0.01);
    std::vector<std::vector<double>> cases(kCases);
    for (std::size_t c = 0; c < kCases; ++c) {
      const bool noisy = c >= kCases - kNoisyCases;
      const double level = 100.0 * (c < kRegressedCases ? 1 - regression : 1);
      const double drift = normal(noisy ? 0.10 : 0.02) + run_wide;
      const double step = noisy ? 0.03 : 0.01;
      double wander = normal(step);
      for (std::size_t r = 0; r < kRepetitions; ++r) {
        cases[c].push_back(level * std::exp(drift + wander));
        wander = 0.5 * wander + normal(step * std::sqrt(1 - 0.25));
      }
    }
    return cases;
  }

 private:
  double normal(double sd) { return std::normal_distribution<double>(0, sd)(random_); }
  std::mt19937_64& random_;
};

struct GateRates {
  double any_slower = 0;     // share of comparisons the gate failed
  double changed_found = 0;  // share of comparisons naming at least one regressed case
};

double median_of(const std::vector<double>& values) {
  return summarize(values).median;
}

// `regression` applied to the first kRegressedCases cases on side B (higher is better).
GateRates gate_rates(double regression, std::size_t runs_per_side, std::uint64_t seed,
                     const VerdictOptions& options = {}) {
  std::mt19937_64 random(seed);
  SimulatedBuild build(random);
  std::size_t failed = 0;
  std::size_t found = 0;
  for (std::size_t k = 0; k < kComparisons; ++k) {
    std::vector<CaseRuns> cases(kCases);
    for (std::size_t side = 0; side < 2; ++side) {
      for (std::size_t r = 0; r < runs_per_side; ++r) {
        const auto run = build.run(side == 1 ? regression : 0);
        for (std::size_t c = 0; c < kCases; ++c) {
          (side == 0 ? cases[c].base : cases[c].other).push_back(median_of(run[c]));
        }
      }
    }
    const std::vector<Judgement> verdicts = judge_runs(cases, options);
    bool any = false;
    bool changed = false;
    for (std::size_t c = 0; c < kCases; ++c) {
      if (verdicts[c].reliable && verdicts[c].verdict == Verdict::slower) {
        any = true;
        changed = changed || c < kRegressedCases;
      }
    }
    failed += any ? 1 : 0;
    found += changed ? 1 : 0;
  }
  return {static_cast<double>(failed) / kComparisons, static_cast<double>(found) / kComparisons};
}

TEST(GateCalibration, SameBuildRunsRaiseAtMostFivePercentFalseAlarms) {
  const GateRates same = gate_rates(0, 3, 56);
  RecordProperty("false_alarm_pct", std::to_string(same.any_slower * 100));
  EXPECT_LE(same.any_slower, 0.05)
      << "the gate failed " << same.any_slower * 100 << "% of comparisons of unchanged builds";
}

TEST(GateCalibration, AFifteenPercentRegressionInFiveCasesIsFoundFourTimesInFive) {
  const GateRates changed = gate_rates(kRegression, 3, 57);
  RecordProperty("power_pct", std::to_string(changed.changed_found * 100));
  EXPECT_GE(changed.changed_found, 0.80) << "the gate named a regressed case in only "
                                         << changed.changed_found * 100 << "% of comparisons";
}

// The calibration can fail: the rule compare used before (a U test over one run's repetitions,
// each repetition taken for an independent run) raises false alarms in most comparisons of the
// same simulated build, as it did on real runs.
TEST(GateCalibration, RepetitionsTakenAsRunsFailTheFalseAlarmBound) {
  std::mt19937_64 random(58);
  SimulatedBuild build(random);
  std::size_t failed = 0;
  const std::size_t comparisons = 100;
  for (std::size_t k = 0; k < comparisons; ++k) {
    const auto a = build.run(0);
    const auto b = build.run(0);
    bool any = false;
    for (std::size_t c = 0; c < kCases && !any; ++c) {
      const Judgement j =
          judge({a[c], kRepetitions, {}, {}}, {b[c], kRepetitions, {}, {}}, Better::higher, {});
      any = j.reliable && j.verdict == Verdict::slower;
    }
    failed += any ? 1 : 0;
  }
  EXPECT_GT(static_cast<double>(failed) / comparisons, 0.05);
}

// And so can the power bound: with 2 runs a side, 2 degrees of freedom per case, the same gate
// misses most 15% regressions.
TEST(GateCalibration, TwoRunsASideFailThePowerBound) {
  EXPECT_LT(gate_rates(kRegression, 2, 59).changed_found, 0.80);
}

}  // namespace
}  // namespace h2d
