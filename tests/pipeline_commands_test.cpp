// End to end: `h2dbench soak`, `run --watchdog`, and Ctrl-C during a run, as a user sees them.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <string>

#include "harness/core/stopwatch.hpp"
#include "harness/cuda/device.hpp"
#include "tests/child_process.hpp"

namespace h2d {
namespace {

using testing::interrupt_h2dbench;
using ProcessResult = testing::ChildResult;
using testing::run_h2dbench;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(SoakCommand, RunsRandomConfigurationsCleanly) {
  const ProcessResult result = run_h2dbench({"soak", "--duration", "2s", "--seed", "11"});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_TRUE(contains(result.output, "seed 11")) << result.output;
  EXPECT_TRUE(contains(result.output, "checksum failures:          0 (of ")) << result.output;
  EXPECT_TRUE(contains(result.output, "lost or duplicated batches: 0")) << result.output;
  EXPECT_TRUE(contains(result.output, "longest stall:")) << result.output;
  if (!discover_devices().usable()) {
    EXPECT_TRUE(contains(result.output, "Soaking the host-only pipeline instead")) << result.output;
  }
}

TEST(SoakCommand, BadOptionsAreUsageErrors) {
  for (const auto& args : std::vector<std::vector<std::string>>{{"soak", "--duration", "soon"},
                                                                {"soak", "--duration", "0s"},
                                                                {"soak", "--duration"},
                                                                {"soak", "--watchdog", "-1"},
                                                                {"soak", "--seed", "x"},
                                                                {"soak", "--bogus"}}) {
    const ProcessResult result = run_h2dbench(args);
    EXPECT_EQ(result.exit_code, 2) << args[1] << ": " << result.output;
    EXPECT_TRUE(contains(result.output, "h2dbench: error: ")) << result.output;
    EXPECT_TRUE(contains(result.output, args[1])) << result.output;
  }
}

TEST(RunCommand, WatchdogFlagIsChecked) {
  const ProcessResult bad = run_h2dbench({"run", "--watchdog", "never"});
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_TRUE(contains(bad.output, "--watchdog")) << bad.output;
}

// Ctrl-C in the middle of a pipeline case: the case stops at once, the cases left are skipped,
// the report of what completed is written, and the exit code says so.
TEST(RunCommand, InterruptWritesTheReportOfWhatCompleted) {
  const std::string out = ::testing::TempDir() + "h2d_interrupted_report.json";
  std::remove(out.c_str());
  const Stopwatch clock;
  const ProcessResult result =
      interrupt_h2dbench({"run", "--preset", "quick", "--filter", "^host/pipeline/", "--out", out,
                          "--benchmark_min_time=20"},
                         1500);  // well inside the first case (20 s) even on a loaded machine
  EXPECT_LT(clock.seconds(), 15) << "the case did not stop at once (it runs for 20 s)";
  EXPECT_EQ(result.exit_code, 130) << result.output;
  // Counted as not run, not as done, and not listed one by one as skipped.
  EXPECT_TRUE(contains(result.output,
                       "h2dbench: interrupted: 0 of 9 cases done, 9 not run; the "
                       "report holds the cases that completed"))
      << result.output;
  EXPECT_FALSE(contains(result.output, "skipped host/pipeline/")) << result.output;
  EXPECT_FALSE(contains(result.output, "cases done (")) << "no progress line counts them as done";
  std::ifstream in(out);
  ASSERT_TRUE(in.good()) << "no report written: " << result.output;
  const nlohmann::json report = nlohmann::json::parse(in);
  const auto& skipped = report.at("h2dbench").at("skipped_cases");
  ASSERT_EQ(skipped.size(), 9u) << report.dump(2);  // the quick host/pipeline cases
  EXPECT_TRUE(
      contains(skipped[0].at("reason").get<std::string>(), "interrupted by SIGINT (Ctrl-C) after"))
      << report.dump(2);
  for (std::size_t i = 1; i < skipped.size(); ++i) {
    EXPECT_EQ(skipped[i].at("reason"), "the run was interrupted before this case completed")
        << report.dump(2);
  }
  for (const auto& problem : skipped) {
    EXPECT_EQ(problem.at("kind"), "interrupted") << report.dump(2);
  }
  EXPECT_TRUE(report.at("h2dbench").at("failed_cases").empty()) << report.dump(2);
  std::remove(out.c_str());
}

}  // namespace
}  // namespace h2d
