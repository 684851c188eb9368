// End to end: what a user who gets things wrong sees. One clear line and exit code 2 for bad
// input, never a crash, a hang, a half-written report or a surprise.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "harness/cuda/device.hpp"
#include "tests/child_process.hpp"
#include "tests/process_runner.hpp"

namespace h2d {
namespace {

using testing::h2dbench;
using testing::run_process;
using testing::shell_quote;
using testing::TempDir;

const std::string kOneCase = "--preset quick --filter '^host/memcpy/threads=1/bytes=1MiB$'";

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t found = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
    ++found;
  }
  return found;
}

void expect_one_line_error(const std::string& args, const std::string& fragment) {
  const auto result = run_process(h2dbench() + " " + args);
  EXPECT_EQ(result.exit_code, 2) << args << "\n" << result.output;
  EXPECT_EQ(result.output.rfind("h2dbench: error: ", 0), 0u) << args << "\n" << result.output;
  EXPECT_NE(result.output.find(fragment), std::string::npos) << args << "\n" << result.output;
  EXPECT_EQ(count(result.output, "\n"), 1u) << args << "\n" << result.output;
}

// Issue 20: repeated switches were accepted; `soak --watchdog 0.001` reported a false stall and
// `soak --duration 99999999999999999999s` planned 1e+20 s.
TEST(CliRobustness, RepeatedSwitchesAndAbsurdDurationsAreRefused) {
  expect_one_line_error("topology --json --json", "--json is given twice; give it once");
  expect_one_line_error("run --profile --profile", "--profile is given twice");
  expect_one_line_error("compare a.json b.json --fail-on-regression --fail-on-regression",
                        "--fail-on-regression is given twice");
  expect_one_line_error("soak --watchdog 0.001", "shorter than 1 s");
  expect_one_line_error("run --watchdog 10ms", "shorter than 1 s");
  expect_one_line_error("soak --duration 99999999999999999999s", "longer than 30 days");
}

// Issue 20: `topology --xml /dev/zero` (and HWLOC_XMLFILE=/dev/zero) grew to 5.8 GB in 10 s.
TEST(CliRobustness, TopologyXmlIsCheckedBeforeItIsRead) {
  expect_one_line_error("topology --xml /dev/zero", "is a device, pipe or socket");
  const auto env = run_process("HWLOC_XMLFILE=/dev/zero " + h2dbench() + " topology");
  EXPECT_EQ(env.exit_code, 2) << env.output;
  EXPECT_NE(env.output.find("HWLOC_XMLFILE '/dev/zero' is a device"), std::string::npos)
      << env.output;
  TempDir dir;
  const std::string huge = dir.file("huge.xml");
  { std::ofstream create(huge); }
  std::filesystem::resize_file(huge, std::uintmax_t{1} << 30);  // sparse: costs no disk
  expect_one_line_error("topology --xml " + shell_quote(huge), "is larger than 64 MiB");
}

// `run --help` said "unknown option '--help' ... see --help" (and so did `scripts/bench --help`);
// `help x` and `version x` ignored what followed.
TEST(CliRobustness, HelpForEachCommandAndNothingIgnored) {
  for (const char* args : {"run --help", "--preset quick --help", "help run", "list -h"}) {
    const auto result = run_process(h2dbench() + " " + args);
    EXPECT_EQ(result.exit_code, 0) << args << "\n" << result.output;
    EXPECT_EQ(result.output.rfind("usage: h2dbench run", 0) == 0 ||
                  result.output.rfind("usage: h2dbench list", 0) == 0,
              true)
        << args << "\n"
        << result.output;
    // Each command its own options: list takes no --pinned-limit (CommandHelpShowsThat...).
    const bool list = std::string(args).rfind("list", 0) == 0;
    EXPECT_NE(result.output.find(list ? "--all" : "--pinned-limit"), std::string::npos) << args;
  }
  const auto compare = run_process(h2dbench() + " compare --help");
  EXPECT_EQ(compare.exit_code, 0) << compare.output;
  EXPECT_EQ(compare.output.rfind("usage: h2dbench compare A.json B.json", 0), 0u) << compare.output;
  expect_one_line_error("help frobnicate", "give one command");
  expect_one_line_error("version now", "version takes no arguments");
}

// Repeated options replaced each other silently; `--flag=` and a flag as a value were taken.
TEST(CliRobustness, EveryCommandReadsOptionsTheSameWay) {
  expect_one_line_error("run --preset quick --preset full --filter '^nomatch$'",
                        "--preset is given twice");
  expect_one_line_error("list --filter a --filter=b", "--filter is given twice");
  expect_one_line_error("compare a.json b.json --format csv --format json",
                        "--format is given twice");
  expect_one_line_error("compare a.json b.json --filter --format", "--filter needs a value");
  expect_one_line_error("compare a.json b.json --filter=", "--filter needs a value");
  expect_one_line_error("soak --duration 1s --duration 2s", "--duration is given twice");
  expect_one_line_error("soak --seed abc", "--seed 'abc' is not valid");
  expect_one_line_error("topology --xml=", "--xml needs a value");
  expect_one_line_error("run --profile=yes", "--profile takes no value");
  expect_one_line_error("summary r.json --bogus", "unknown option '--bogus' for summary");
  const std::string huge(20000, 'a');  // std::regex overflowed the stack near 100k characters
  expect_one_line_error("list --filter " + huge, "characters long");
  expect_one_line_error("compare a.json b.json --filter " + huge, "characters long");
}

TEST(CliRobustness, TopologyExportNeverWritesAFileNamedAfterAFlag) {
  TempDir dir;
  const auto result = run_process("cd " + shell_quote(dir.path()) + " && " + h2dbench() +
                                  " topology --export --json");
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("--export needs a value"), std::string::npos) << result.output;
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

// Google Benchmark found these only once the suite had started: several lines, exit codes 0
// and 1, an abort, or an empty report with exit 0.
TEST(CliRobustness, GoogleBenchmarkFlagsAreCheckedBeforeAnythingRuns) {
  TempDir dir;
  const std::string out = " --out " + dir.file("r.json") + " ";
  expect_one_line_error(kOneCase + out + "--benchmark_repetitions=0", "at least 1");
  expect_one_line_error(kOneCase + out + "--benchmark_repetitions=-3", "at least 1");
  expect_one_line_error(kOneCase + out + "--benchmark_min_time=abc", "above 0");
  expect_one_line_error(kOneCase + out + "--benchmark_time_unit=xx", "microseconds");
  expect_one_line_error(kOneCase + out + "--benchmark_list_tests=true", "h2dbench list");
  expect_one_line_error(kOneCase + out + "--benchmark_out=/proc/x", "--out PATH");
  expect_one_line_error(kOneCase + out + "--benchmark_format=csv", "not supported");
  expect_one_line_error(kOneCase + out + "--benchmark_filter=nomatch",
                        "no case matches --filter '^host/memcpy/threads=1/bytes=1MiB$' and "
                        "--benchmark_filter 'nomatch'");
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

TEST(CliRobustness, BenchmarkFilterSelectsLikeGoogleBenchmark) {
  TempDir dir;
  const std::string out = dir.file("r.json");
  const auto result = run_process(h2dbench() + " run --preset quick --filter '^host/memcpy/' " +
                                  "--benchmark_filter=-threads=2 --out " + out);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  std::ifstream in(out);
  const nlohmann::json report = nlohmann::json::parse(in);
  ASSERT_FALSE(report["benchmarks"].empty());
  for (const auto& run : report["benchmarks"]) {
    EXPECT_EQ(run["name"].get<std::string>().find("threads=2"), std::string::npos) << run["name"];
  }
}

// Without a GPU the same reason was repeated for each of 12 families: a 2300-character line.
TEST(CliRobustness, AReasonSharedByFamiliesIsSaidOnce) {
  const auto run = run_process(h2dbench() + " run --filter nomatch");
  EXPECT_EQ(run.exit_code, 2) << run.output;
  const auto list = run_process(h2dbench() + " list --filter nomatch");
  EXPECT_EQ(list.exit_code, 0) << list.output;
  if (!discover_devices().usable()) {
    EXPECT_EQ(count(run.output, "no usable GPU"), 1u) << run.output;
    EXPECT_EQ(count(list.output, "no usable GPU"), 1u) << list.output;
    EXPECT_NE(list.output.find("# not listed: h2d/batch, h2d/decode, h2d/memory"),
              std::string::npos)
        << list.output;
  }
}

// The report's folder was created before the filter was found to match nothing.
TEST(CliRobustness, AFilterThatMatchesNothingLeavesNoFolderBehind) {
  TempDir dir;
  expect_one_line_error("run --filter nomatch --out " + dir.file("sub/r.json"), "no case matches");
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

nlohmann::json read_report_json(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

// Google Benchmark 1.8 warns per case about a bare number, 1.7 refuses "0.01s": both work.
TEST(CliRobustness, MinTimeTakesBothSpellings) {
  TempDir dir;
  for (const char* min_time : {"0.01", "0.01s"}) {
    const auto result =
        run_process(h2dbench() + " " + kOneCase + " --benchmark_min_time=" + min_time + " --out " +
                    dir.file("r.json"));
    EXPECT_EQ(result.exit_code, 0) << min_time << "\n" << result.output;
    EXPECT_EQ(result.output.find("min_time"), std::string::npos) << result.output;
  }
}

// 16 streams shared 8 hardware queues: h2dbench asks for 32, keeps a user's own value, and says
// in the report which was in effect.
TEST(CliRobustness, DeviceMaxConnectionsIsSetAndRecorded) {
  TempDir dir;
  const std::string out = dir.file("r.json");
  for (const auto& [environment, expected] : std::vector<std::pair<std::string, std::string>>{
           {"env -u CUDA_DEVICE_MAX_CONNECTIONS ", "32"},
           {"CUDA_DEVICE_MAX_CONNECTIONS=4 ", "4"}}) {
    const auto result = run_process(environment + h2dbench() + " " + kOneCase + " --out " + out);
    ASSERT_EQ(result.exit_code, 0) << result.output;
    EXPECT_EQ(read_report_json(out)["h2dbench"]["cuda"]["device_max_connections"], expected);
  }
}

// Ctrl-C between repetitions aborted the process inside Google Benchmark (exit 134, no report).
TEST(CliRobustness, InterruptBetweenRepetitionsStillWritesTheReport) {
  TempDir dir;
  const std::string out = dir.file("r.json");
  const testing::ChildResult result =
      testing::interrupt_h2dbench({"run", "--filter", "^host/memcpy/", "--benchmark_repetitions=10",
                                   "--benchmark_min_time=0.05", "--out", out},
                                  700);
  EXPECT_EQ(result.signal, 0) << result.output;
  EXPECT_EQ(result.exit_code, 130) << result.output;
  std::ifstream in(out);
  ASSERT_TRUE(in.good()) << "no report: " << result.output;
  const nlohmann::json report = nlohmann::json::parse(in);
  EXPECT_FALSE(report.at("h2dbench").at("skipped_cases").empty());
  EXPECT_TRUE(report.at("h2dbench").at("failed_cases").empty());
}

// `timeout -s INT 25 h2dbench run --out X` wrote no report and left X.lock: timeout delivers its
// signal twice (to the child, then to its process group), and the second one aborted the run.
TEST(CliRobustness, TwoQuickInterruptsStillWriteTheReportAndRemoveTheLock) {
  TempDir dir;
  const std::vector<std::string> long_run{"run",      "--preset", "quick",
                                          "--filter", "^host/",   "--benchmark_min_time=2"};
  const auto expect_report = [](const std::string& out, const std::string& output) {
    std::ifstream in(out);
    ASSERT_TRUE(in.good()) << "no report: " << output;
    const nlohmann::json report = nlohmann::json::parse(in);
    EXPECT_FALSE(report.at("h2dbench").at("skipped_cases").empty()) << output;
    EXPECT_FALSE(std::filesystem::exists(out + ".lock")) << output;
  };

  const std::string twice = dir.file("twice.json");
  std::vector<std::string> args = long_run;
  args.insert(args.end(), {"--out", twice});
  const testing::ChildResult result =
      testing::interrupt_h2dbench(args, 500, /*signals=*/2, /*gap_ms=*/100);
  EXPECT_EQ(result.signal, 0) << result.output;
  EXPECT_EQ(result.exit_code, 130) << result.output;
  expect_report(twice, result.output);
  // The families that never got their turn (sorted by name: host/staging is last).
  EXPECT_NE(result.output.find("\nhost/staging: not run (interrupted)\n"), std::string::npos)
      << result.output;

  const std::string timed_out = dir.file("timeout.json");
  std::string command = "timeout -s INT 1 " + h2dbench();
  for (const std::string& word : long_run) {
    command += " " + shell_quote(word);
  }
  const auto by_timeout = run_process(command + " --out " + shell_quote(timed_out));
  EXPECT_EQ(by_timeout.exit_code, 124) << by_timeout.output;  // timeout's "it timed out"
  expect_report(timed_out, by_timeout.output);
}

// Two runs given the same --out both measured (each disturbing the other) and the second
// silently replaced the first one's report.
TEST(CliRobustness, ASecondRunWritingTheSameReportStopsAtOnce) {
  TempDir dir;
  const std::string out = dir.file("r.json");
  auto first = std::async(std::launch::async, [&] {
    return testing::interrupt_h2dbench({"run", "--preset", "quick", "--filter", "^host/pipeline/",
                                        "--benchmark_min_time=20", "--out", out},
                                       2000);
  });
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!std::filesystem::exists(out + ".lock") && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const auto second = run_process(h2dbench() + " " + kOneCase + " --out " + out);
  EXPECT_EQ(second.exit_code, 2) << second.output;
  EXPECT_NE(second.output.find("is being written by another h2dbench (pid "), std::string::npos)
      << second.output;
  const testing::ChildResult ran = first.get();
  EXPECT_EQ(ran.exit_code, 130) << ran.output;
  std::ifstream in(out);
  EXPECT_FALSE(nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false).is_discarded())
      << "the interrupted run left a report that is not JSON: " << out;
  EXPECT_FALSE(std::filesystem::exists(out + ".lock"));
  // Done: the path is free again.
  const auto third = run_process(h2dbench() + " " + kOneCase + " --out " + out);
  EXPECT_EQ(third.exit_code, 0) << third.output;
}

// The Slurm script appends --out per node; a user's --out used to be dropped silently, and now
// h2dbench would refuse the pair on every node.
TEST(CliRobustness, SlurmScriptRefusesAnOutOfItsOwn) {
  const auto result =
      run_process("env -u SLURM_JOB_ID " +
                  shell_quote(testing::source_dir() + "/scripts/slurm/h2dbench.sbatch") +
                  " -- --preset quick --out x.json");
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("'--out' in the run options"), std::string::npos) << result.output;
}

}  // namespace
}  // namespace h2d
