#pragma once

#include <string>
#include <vector>

namespace h2d {

// The subcommands of h2dbench. Each takes the words after its name and returns the exit code:
// 0 success, 1 a case failed (wrong data, CUDA error), 2 bad input (UsageError).
int run_command(const std::vector<std::string>& args, const std::string& program);
int list_command(const std::vector<std::string>& args);

}  // namespace h2d
