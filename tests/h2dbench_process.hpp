#pragma once

#include <filesystem>
#include <string>

#include "tests/process_runner.hpp"

namespace h2d_test {

// The outcome of running the h2dbench executable (h2d::testing::h2dbench_path()) as a user would.
struct ProcessResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

// Runs `h2dbench <arguments>` through the shell with `environment` ("NAME=value ..." prefixed to
// the command; quote values yourself). Arguments are shell words: quote what needs it.
ProcessResult run_h2dbench(const std::string& arguments, const std::string& environment = "");

// Runs any shell command the same way (for scripts/).
ProcessResult run_shell(const std::string& command);

// A fresh, empty folder for one test's files, removed and re-created on each call and removed
// when the test program ends.
std::filesystem::path scratch_folder(const std::string& name);

using h2d::testing::shell_quote;

}  // namespace h2d_test
