// run_case inside Google Benchmark: how a case that ends early is counted.

#include "harness/suite/case_runner.hpp"

#include <benchmark/benchmark.h>
#include <gtest/gtest.h>

#include <cstdlib>

#include "harness/suite/case_skip.hpp"

namespace h2d {
namespace {

class SilentReporter : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>&) override {}
};

// Two repetitions measure, the third ends before its loop (Ctrl-C between repetitions, a skip in
// its setup): Google Benchmark's statistics aborted the process ("Check `(run_iterations) ==
// (run.iterations)' failed"), so an interrupted default-preset run left no report at all.
void run_three_repetitions_the_last_skipped() {
  benchmark::ClearRegisteredBenchmarks();
  static CaseOutcomeLog log;
  static int calls = 0;
  static BenchmarkCase bench_case;
  bench_case.name = "test/skip_third";
  bench_case.body = [](benchmark::State& state, const CaseContext&) {
    if (++calls > 2) {
      throw CaseSkipped("gone before its loop");
    }
    for (auto _ : state) {
      benchmark::DoNotOptimize(calls);
    }
  };
  benchmark::RegisterBenchmark(
      bench_case.name.c_str(),
      [](benchmark::State& state) { run_case(bench_case, CaseContext{}, log, state); })
      ->Iterations(5)
      ->Repetitions(3);
  SilentReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::ClearRegisteredBenchmarks();
  std::exit(log.outcomes().skipped.size() == 1 ? 0 : 3);
}

TEST(CaseRunner, ARepetitionEndingBeforeItsLoopDoesNotAbortTheRun) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(run_three_repetitions_the_last_skipped(), ::testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace h2d
