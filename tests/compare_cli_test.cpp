// compare and summary as a user runs them: exit codes and messages of the h2dbench executable.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "report_builder.hpp"
#include "tests/process_runner.hpp"

namespace h2d {
namespace {

struct Outcome {
  int exit_code = -1;
  std::string output;  // stdout and stderr
};

Outcome run_h2dbench(const std::string& arguments) {
  const std::string command = h2d::testing::h2dbench() + " " + arguments + " 2>&1";
  Outcome outcome;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) {
    return outcome;
  }
  char buffer[4096];
  std::size_t read = 0;
  while ((read = fread(buffer, 1, sizeof(buffer), pipe)) > 0) {
    outcome.output.append(buffer, read);
  }
  const int status = pclose(pipe);
  outcome.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return outcome;
}

class CompareCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("h2d_compare_cli_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(path(name)) << text;
    return path(name);
  }
  std::filesystem::path dir_;
};

const std::string kCase = "host/memcpy/threads=1/bytes=64MiB";

TEST_F(CompareCli, BadReportsNameTheFileAndExit2) {
  testing::ReportBuilder good("a");
  good.add(kCase, "GB_per_s", {8});
  good.write(path("good.json"));
  const std::string full = good.json().dump();
  const std::vector<std::pair<std::string, std::string>> bad{
      {write("empty.json", ""), "the file is empty"},
      {write("truncated.json", full.substr(0, full.size() / 2)), "perhaps truncated"},
      {write("foreign.json", R"({"context": {}, "benchmarks": [], "h2dbench": 3})"),
       "'h2dbench' entry is not an object"},
      {write("other.json", R"({"hello": "world"})"), "not a Google Benchmark JSON report"},
      {path("missing.json"), "cannot open"},
  };
  for (const auto& [file, message] : bad) {
    const Outcome outcome = run_h2dbench("compare " + path("good.json") + " " + file);
    EXPECT_EQ(outcome.exit_code, 2) << outcome.output;
    EXPECT_NE(outcome.output.find("h2dbench: error: report '" + file + "'"), std::string::npos)
        << outcome.output;
    EXPECT_NE(outcome.output.find(message), std::string::npos) << outcome.output;
    const Outcome summary = run_h2dbench("summary " + file);
    EXPECT_EQ(summary.exit_code, 2) << summary.output;
  }
}

TEST_F(CompareCli, FailOnRegressionCountsOnlyConfirmedSlowdowns) {
  std::string base_runs;
  std::string slow_runs;
  const std::vector<double> base{8, 8.1, 7.9};
  const std::vector<double> slow{6, 6.1, 5.95};
  for (std::size_t run = 0; run < 3; ++run) {
    testing::ReportBuilder a("a");
    a.add(kCase, "GB_per_s", {base[run]});
    a.write(path("base" + std::to_string(run) + ".json"));
    base_runs += " " + path("base" + std::to_string(run) + ".json");
    testing::ReportBuilder b("b");
    b.add(kCase, "GB_per_s", {slow[run]});
    b.write(path("slow" + std::to_string(run) + ".json"));
    slow_runs += " " + path("slow" + std::to_string(run) + ".json");
  }
  const std::string runs = base_runs + " --vs" + slow_runs;

  const Outcome plain = run_h2dbench("compare" + runs);
  EXPECT_EQ(plain.exit_code, 0) << plain.output;
  EXPECT_NE(plain.output.find("slower p="), std::string::npos) << plain.output;
  const Outcome failing = run_h2dbench("compare" + runs + " --fail-on-regression");
  EXPECT_EQ(failing.exit_code, 1) << failing.output;
  EXPECT_NE(failing.output.find("regression: " + kCase + " (B vs A: beyond -5%"), std::string::npos)
      << failing.output;
  // Flags before --vs count as well as after it.
  EXPECT_EQ(run_h2dbench("compare --fail-on-regression" + runs).exit_code, 1);
  // A 25% drop within --threshold 30 is "same".
  const Outcome tolerant = run_h2dbench("compare" + runs + " --fail-on-regression --threshold 30");
  EXPECT_EQ(tolerant.exit_code, 0) << tolerant.output;
  // One run a side, however many repetitions: slower, but unconfirmed, so not a failure.
  testing::ReportBuilder repeated("b");
  repeated.add(kCase, "GB_per_s", {6, 6.1, 5.9, 6.05, 6.0});
  repeated.write(path("repeated.json"));
  const Outcome unconfirmed = run_h2dbench("compare " + path("base0.json") + " " +
                                           path("repeated.json") + " --fail-on-regression");
  EXPECT_EQ(unconfirmed.exit_code, 0) << unconfirmed.output;
  EXPECT_NE(unconfirmed.output.find("slower?"), std::string::npos) << unconfirmed.output;
}

TEST_F(CompareCli, BadUseOfVsExits2WithOneLine) {
  testing::ReportBuilder a("a");
  a.add(kCase, "GB_per_s", {8});
  a.write(path("a.json"));
  testing::ReportBuilder other("elsewhere");
  other.add(kCase, "GB_per_s", {8});
  other.write(path("other.json"));
  write("notes.txt", "not a report\n");
  const std::string ra = path("a.json");
  for (const auto& [args, says] : std::vector<std::pair<std::string, std::string>>{
           {ra + " --vs", "--vs needs at least one report on each side (1 before, 0 after)"},
           {"--vs " + ra, "--vs needs at least one report on each side (0 before, 1 after)"},
           {ra + " --vs " + ra + " --vs " + ra, "--vs is given twice"},
           {ra + " --vs=" + ra, "--vs takes no value"},
           {ra + " " + path("other.json") + " --vs " + ra, "the runs of one side must come"},
           {ra + " --vs " + path("notes.txt"), "notes.txt"},
           {ra + " --threshold 5 --vs " + ra + " --threshold 5", "--threshold is given twice"}}) {
    const Outcome outcome = run_h2dbench("compare " + args);
    EXPECT_EQ(outcome.exit_code, 2) << args << "\n" << outcome.output;
    EXPECT_EQ(outcome.output.rfind("h2dbench: error: ", 0), 0u) << args << "\n" << outcome.output;
    EXPECT_NE(outcome.output.find(says), std::string::npos) << args << "\n" << outcome.output;
    EXPECT_EQ(std::count(outcome.output.begin(), outcome.output.end(), '\n'), 1) << outcome.output;
  }
}

// Runs of one build drawn from a real report (the H200's quick run in results/): each run
// moves every case by its own drift (2%) and a drift all its cases share (1%), as runs minutes
// apart do on the 2-core VM; `worse` makes one family's figures 15% worse.
void write_drifted_run(const nlohmann::json& real, const std::string& path, std::mt19937_64& random,
                       const std::string& worse_family) {
  std::normal_distribution<double> case_drift(0, 0.02);
  const double run_wide = std::normal_distribution<double>(0, 0.01)(random);
  nlohmann::json run = real;
  std::map<std::string, double> factor_of;  // one draw a case: its repetitions share the run
  for (auto& entry : run["benchmarks"]) {
    const std::string name = entry.value("run_name", entry.value("name", ""));
    if (factor_of.count(name) == 0) {
      const bool worse = !worse_family.empty() && name.rfind(worse_family + "/", 0) == 0;
      factor_of[name] = std::exp(case_drift(random) + run_wide) * (worse ? 0.85 : 1.0);
    }
    const double factor = factor_of[name];
    for (const char* rate : {"GB_per_s", "samples_per_s", "tiles_per_s", "bytes_per_second"}) {
      if (entry.contains(rate) && entry[rate].is_number()) {
        entry[rate] = entry[rate].get<double>() * factor;
      }
    }
    for (const char* time : {"real_time", "cpu_time", "pin_us"}) {
      if (entry.contains(time) && entry[time].is_number()) {
        entry[time] = entry[time].get<double>() / factor;
      }
    }
  }
  std::ofstream(path) << run.dump();
}

TEST_F(CompareCli, ThreeRunsASideOfOneBuildPassAndAFamily15PercentWorseFails) {
  const nlohmann::json real = nlohmann::json::parse(
      std::ifstream(testing::source_dir() + "/results/2026-12-04_h200-pcie5/quick.json"));
  std::mt19937_64 random(56);
  // Runs a, b of the build and c of a build whose host/collate is 15% worse, three each.
  std::map<char, std::string> runs;
  for (const char side : {'a', 'b', 'c'}) {
    for (std::size_t run = 0; run < 3; ++run) {
      const std::string name = side + std::to_string(run) + ".json";
      write_drifted_run(real, path(name), random, side == 'c' ? "host/collate" : "");
      runs[side] += " " + path(name);
    }
  }
  const std::string same = runs['a'] + " --vs" + runs['b'];
  const std::string worse = runs['a'] + " --vs" + runs['c'];
  const Outcome unchanged = run_h2dbench("compare" + same + " --fail-on-regression");
  EXPECT_EQ(unchanged.exit_code, 0) << unchanged.output;
  const Outcome regressed = run_h2dbench("compare" + worse + " --fail-on-regression");
  EXPECT_EQ(regressed.exit_code, 1) << regressed.output;
  std::size_t named = 0;
  for (std::size_t at = regressed.output.find("regression: "); at != std::string::npos;
       at = regressed.output.find("regression: ", at + 1)) {
    EXPECT_EQ(regressed.output.compare(at, 24, "regression: host/collate"), 0)
        << regressed.output.substr(at, 120);
    ++named;
  }
  // Each of the 18 cases is found about one time in four at 2% drift per run (the calibration's
  // power is that of the comparison, any of the changed cases): the gate names some, never others.
  EXPECT_GE(named, 1u);
}

TEST_F(CompareCli, HelpSaysHowToCompareRuns) {
  const Outcome help = run_h2dbench("compare --help");
  EXPECT_EQ(help.exit_code, 0) << help.output;
  for (const char* says : {"--vs B1.json B2.json B3.json", "  --vs ", "  --threshold PCT ",
                           "(default 5)", "unconfirmed"}) {
    EXPECT_NE(help.output.find(says), std::string::npos) << says << "\n" << help.output;
  }
}

TEST_F(CompareCli, FormatsAndUsageErrors) {
  testing::ReportBuilder a("a");
  a.add(kCase, "GB_per_s", {8});
  a.write(path("a.json"));
  const std::string two = path("a.json") + " " + path("a.json");
  EXPECT_EQ(run_h2dbench("compare " + two + " --format csv").output.rfind("family,case", 0), 0u);
  EXPECT_EQ(run_h2dbench("compare " + two + " --format=json").output.front(), '{');
  EXPECT_NE(run_h2dbench("compare " + two + " --format markdown").output.find("| case |"),
            std::string::npos);
  for (const std::string& bad :
       {"compare " + path("a.json"), "compare " + two + " --format xml",
        "compare " + two + " --threshold -1", "compare " + two + " --filter '('",
        "compare " + two + " --nope", "compare " + two + " --filter", std::string("summary"),
        "summary " + two}) {
    const Outcome outcome = run_h2dbench(bad);
    EXPECT_EQ(outcome.exit_code, 2) << bad << "\n" << outcome.output;
    EXPECT_EQ(outcome.output.rfind("h2dbench: error: ", 0), 0u) << bad << "\n" << outcome.output;
  }
}

TEST_F(CompareCli, RunEndsWithTheVerdictAndSummaryRepeatsIt) {
  const std::string report = path("run.json");
  const Outcome run =
      run_h2dbench("--preset quick --filter 'host/memcpy/threads=1/' --out " + report);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::size_t verdict = run.output.find("\nVerdict\nhost/memcpy (GB/s, higher is better)\n");
  ASSERT_NE(verdict, std::string::npos) << run.output;
  EXPECT_LT(run.output.find("host/memcpy/threads=1/bytes=1MiB"), verdict);  // after the table
  EXPECT_GT(run.output.find("report: " + report), verdict);
  const Outcome summary = run_h2dbench("summary " + report);
  EXPECT_EQ(summary.exit_code, 0) << summary.output;
  EXPECT_NE(summary.output.find("bytes=64MiB: "), std::string::npos) << summary.output;
  // Two runs of this machine compare without complaint.
  const Outcome compared = run_h2dbench("compare " + report + " " + report);
  EXPECT_EQ(compared.exit_code, 0) << compared.output;
  EXPECT_NE(compared.output.find("same?"), std::string::npos) << compared.output;
}

}  // namespace
}  // namespace h2d
