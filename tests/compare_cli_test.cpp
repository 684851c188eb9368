// compare and summary as a user runs them: exit codes and messages of the h2dbench executable.

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

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

TEST_F(CompareCli, FailOnRegressionCountsOnlyReliableSlowdowns) {
  testing::ReportBuilder base("a");
  base.add(kCase, "GB_per_s", {8, 8.1, 7.9, 8.05, 8.0});
  base.write(path("base.json"));
  testing::ReportBuilder slow("b");
  slow.add(kCase, "GB_per_s", {6, 6.1, 5.9, 6.05, 6.0});
  slow.write(path("slow.json"));
  testing::ReportBuilder once("c");
  once.add(kCase, "GB_per_s", {4});
  once.write(path("once.json"));

  const Outcome plain = run_h2dbench("compare " + path("base.json") + " " + path("slow.json"));
  EXPECT_EQ(plain.exit_code, 0) << plain.output;
  EXPECT_NE(plain.output.find("slower p="), std::string::npos) << plain.output;
  const Outcome failing = run_h2dbench("compare " + path("base.json") + " " + path("slow.json") +
                                       " --fail-on-regression");
  EXPECT_EQ(failing.exit_code, 1) << failing.output;
  EXPECT_NE(failing.output.find("regression: " + kCase), std::string::npos) << failing.output;
  // A 25% drop within --threshold 30 is "same".
  const Outcome tolerant = run_h2dbench("compare " + path("base.json") + " " + path("slow.json") +
                                        " --fail-on-regression --threshold 30");
  EXPECT_EQ(tolerant.exit_code, 0) << tolerant.output;
  // One measurement: slower, but unreliable, so not a failure.
  const Outcome unreliable = run_h2dbench("compare " + path("base.json") + " " + path("once.json") +
                                          " --fail-on-regression");
  EXPECT_EQ(unreliable.exit_code, 0) << unreliable.output;
  EXPECT_NE(unreliable.output.find("slower?"), std::string::npos) << unreliable.output;
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
