// scripts/profile: a clear error without nsys, and the right nsys command line (checked with a
// stand-in nsys that records its arguments and runs the program it was given).

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "tests/h2dbench_process.hpp"
#include "tests/process_runner.hpp"

namespace {

using h2d_test::shell_quote;

const std::string kScript = h2d::testing::source_dir() + "/scripts/profile";

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(ProfileScript, SaysWhatToDoWhenNsysIsMissing) {
  const auto missing = h2d_test::run_shell("env PATH=/usr/bin:/bin H2D_NSYS_SEARCH=/nonexistent " +
                                           shell_quote(kScript) + " --preset quick");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.output.find("nsys (Nsight Systems) was not found"), std::string::npos)
      << missing.output;
  EXPECT_NE(missing.output.find("h2dbench run --trace FILE.json"), std::string::npos);

  const auto wrong = h2d_test::run_shell("env H2D_NSYS=/nonexistent/nsys " + shell_quote(kScript));
  EXPECT_EQ(wrong.exit_code, 2);
  EXPECT_NE(wrong.output.find("H2D_NSYS=/nonexistent/nsys is not an executable"), std::string::npos)
      << wrong.output;
}

TEST(ProfileScript, RunsNsysWithTracesAroundProfileModeNamedAfterTheReport) {
  const auto folder = h2d_test::scratch_folder("profile_script");
  const auto fake = folder / "nsys";
  const auto calls = folder / "nsys-args.txt";
  {
    // Records "profile", its options and the program, writes the output file, runs the program.
    std::ofstream script(fake);
    script << "#!/usr/bin/env bash\nset -euo pipefail\n"
           << "log=" << shell_quote(calls.string()) << "\n"
           << "echo \"$1\" >> \"$log\"; shift\n"
           << "while [[ $1 == -* ]]; do echo \"$1\" >> \"$log\";"
           << " case $1 in --output=*) touch \"${1#--output=}.nsys-rep\";; esac; shift; done\n"
           << "echo \"PROGRAM $*\" >> \"$log\"\nexec \"$@\"\n";
  }
  std::filesystem::permissions(fake, std::filesystem::perms::owner_all);
  const auto report = folder / "quick-host.json";
  const auto run = h2d_test::run_shell(
      "env H2D_NSYS=" + shell_quote(fake.string()) +
      " H2D_BIN=" + shell_quote(h2d::testing::h2dbench_path()) + " " + shell_quote(kScript) +
      " --preset quick --filter '^host/memcpy/' --out " + shell_quote(report.string()));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::string args = read_text(calls);
  EXPECT_EQ(args.rfind("profile\n", 0), 0u) << args;
  EXPECT_NE(args.find("--trace=cuda,nvtx,osrt\n"), std::string::npos) << args;
  const std::string base = (folder / "quick-host").string();
  EXPECT_NE(args.find("--output=" + base + "\n"), std::string::npos) << args;
  EXPECT_NE(args.find("PROGRAM " + h2d::testing::h2dbench_path() + " run --profile"),
            std::string::npos)
      << args;
  EXPECT_TRUE(std::filesystem::exists(report)) << "h2dbench ran under the stand-in";
  EXPECT_NE(run.output.find("profile: " + base + ".nsys-rep"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("nsys-ui"), std::string::npos);

  const auto with_trace =
      h2d_test::run_shell("env H2D_NSYS=" + shell_quote(fake.string()) +
                          " H2D_BIN=" + shell_quote(h2d::testing::h2dbench_path()) + " " +
                          shell_quote(kScript) + " --trace t.json");
  EXPECT_EQ(with_trace.exit_code, 2);
  EXPECT_NE(with_trace.output.find("use one or the other"), std::string::npos);
}

}  // namespace
