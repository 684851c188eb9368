// MeasurementLoop inside Google Benchmark: one body call measures until its rule says so, and the
// entry carries the median, the interval and why it stopped.

#include "harness/measure/measurement_loop.hpp"

#include <benchmark/benchmark.h>
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace h2d {
namespace {

class CapturingReporter : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>& runs) override {
    captured.insert(captured.end(), runs.begin(), runs.end());
  }
  std::vector<Run> captured;
};

// Runs `body` as Google Benchmark runs a case of ours (one iteration, manual time).
benchmark::BenchmarkReporter::Run run_one(const std::function<void(benchmark::State&)>& body,
                                          int iterations = 1) {
  benchmark::ClearRegisteredBenchmarks();
  benchmark::RegisterBenchmark("loop_test", [&](benchmark::State& state) { body(state); })
      ->UseManualTime()
      ->Iterations(iterations);
  CapturingReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::ClearRegisteredBenchmarks();
  EXPECT_EQ(reporter.captured.size(), 1u);
  return reporter.captured.empty() ? benchmark::BenchmarkReporter::Run() : reporter.captured[0];
}

double counter(const benchmark::BenchmarkReporter::Run& run, const std::string& name) {
  const auto found = run.counters.find(name);
  return found == run.counters.end() ? -1 : found->second.value;
}

TEST(MeasurementLoop, ASteadyCaseStopsAtTheFloorAndReportsItsMedian) {
  int body_calls = 0;
  const auto run = run_one([&](benchmark::State& state) {
    ++body_calls;
    MeasurementLoop loop(state, StoppingRule{});
    for (auto _ : loop) {
      loop.record(loop.measurements() % 2 == 0 ? 0.010 : 0.0101);  // 10 ms, +-1%
    }
    EXPECT_EQ(loop.stop_reason(), StopReason::median_known);
  });
  EXPECT_EQ(body_calls, 1) << "no sizing runs: the case's setup is done once";
  EXPECT_EQ(run.iterations, 1);
  EXPECT_EQ(counter(run, "measurements"), 10);
  EXPECT_LE(counter(run, "rel_ci_pct"), 1.0);
  EXPECT_EQ(counter(run, "stopped_by"), static_cast<double>(StopReason::median_known));
  EXPECT_NEAR(run.real_accumulated_time, 0.01005, 6e-5) << "the median measurement";
}

TEST(MeasurementLoop, ANoisyCaseStopsAtItsCapAndSaysSo) {
  StoppingRule rule;
  rule.max_seconds = 0.05;
  const auto run = run_one([&](benchmark::State& state) {
    MeasurementLoop loop(state, rule);
    for (auto _ : loop) {
      std::this_thread::sleep_for(std::chrono::microseconds(200));  // the cap, not the count
      loop.record(loop.measurements() % 2 == 0 ? 0.001 : 0.002);
    }
  });
  EXPECT_GE(counter(run, "measurements"), 10);
  EXPECT_GT(counter(run, "rel_ci_pct"), 20);
  EXPECT_EQ(counter(run, "stopped_by"), static_cast<double>(StopReason::time_cap));
}

TEST(MeasurementLoop, ProfileModeTakesExactlyItsCount) {
  StoppingRule rule;
  rule.exact_measurements = 3;
  const auto run = run_one([&](benchmark::State& state) {
    MeasurementLoop loop(state, rule);
    for (auto _ : loop) {
      loop.record(0.001 * static_cast<double>(loop.measurements() + 1));
    }
  });
  EXPECT_EQ(counter(run, "measurements"), 3);
  EXPECT_NEAR(run.real_accumulated_time, 0.002, 1e-6) << "median of 1, 2, 3 ms";
}

// A loop that forgot to record, or a case registered the old way, is a bug found at once.
TEST(MeasurementLoop, RefusesAnIterationWithoutAMeasurementAndGoogleBenchmarksOwnCounts) {
  const auto forgot = run_one([&](benchmark::State& state) {
    MeasurementLoop loop(state, StoppingRule{});
    try {
      for (auto _ : loop) {
      }
      ADD_FAILURE() << "an iteration without a measurement went on";
    } catch (const std::logic_error& error) {
      EXPECT_NE(std::string(error.what()).find("recorded no measurement"), std::string::npos);
      state.SkipWithError("expected");
    }
  });
  EXPECT_TRUE(forgot.error_occurred);
  const auto old_way = run_one(
      [&](benchmark::State& state) {
        EXPECT_THROW(MeasurementLoop(state, StoppingRule{}), std::logic_error);
        state.SkipWithError("expected");
        for (auto _ : state) {
        }
      },
      5);
  EXPECT_TRUE(old_way.error_occurred);
}

}  // namespace
}  // namespace h2d
