// scripts/test and scripts/h2dbench as a newcomer meets them: help without a build, and the built
// binary reachable from any folder.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/process_runner.hpp"

namespace {

using h2d::testing::run_process;
using h2d::testing::shell_quote;
using h2d::testing::source_dir;

// `scripts/test --help` built everything for minutes and then printed ctest's help.
TEST(Scripts, TestHelpPrintsItsOwnUsageWithoutBuilding) {
  // A preset that does not exist: any attempt to configure or build would fail.
  const auto help = run_process("env H2D_PRESET=no-such-preset " +
                                shell_quote(source_dir() + "/scripts/test") + " --help");
  EXPECT_EQ(help.exit_code, 0) << help.output;
  EXPECT_EQ(help.output.rfind("usage: scripts/test", 0), 0u) << help.output;
  EXPECT_NE(help.output.find("-R "), std::string::npos) << help.output;
  EXPECT_EQ(help.output.find("configuring"), std::string::npos) << help.output;
}

// "bash: h2dbench: command not found": nothing said where the binary is.
TEST(Scripts, WrapperRunsTheBuiltBinaryFromAnyFolder) {
  const std::filesystem::path binary = h2d::testing::h2dbench_path();
  const std::filesystem::path build = binary.parent_path();
  if (build.parent_path() != std::filesystem::path(source_dir()) / "build") {
    GTEST_SKIP() << "h2dbench is not in the source tree's build/<preset>/ here: " << binary;
  }
  const auto version = run_process("cd / && env H2D_PRESET=" + build.filename().string() + " " +
                                   shell_quote(source_dir() + "/scripts/h2dbench") + " version");
  EXPECT_EQ(version.exit_code, 0) << version.output;
  EXPECT_EQ(version.output.rfind("h2dbench ", 0), 0u) << version.output;
}

}  // namespace
