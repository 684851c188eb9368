// h2dbench: measures how to move data from host memory onto GPUs. See README.md.
// Subcommands live in benchmarks/*_command.cpp and register themselves (benchmarks/commands.hpp).

#include <fmt/format.h>

#include <exception>
#include <string>
#include <vector>

#include "benchmarks/commands.hpp"
#include "h2d/version.hpp"
#include "harness/usage_error.hpp"

namespace {

void print_usage() {
  fmt::print("usage: h2dbench [COMMAND] [OPTIONS]\n\ncommands:\n");
  for (const h2d::Command& command : h2d::registered_commands()) {
    fmt::print("  {:<10} {}\n", command.name, command.summary);
  }
  fmt::print("  {:<10} {}\n  {:<10} {}\n", "help", "this text", "version",
             "the version and git commit");
  fmt::print("\nusage of each command:\n");
  for (const h2d::Command& command : h2d::registered_commands()) {
    fmt::print("  h2dbench {}\n", command.usage);
  }
  fmt::print(
      "\nrun options:\n"
      "  --preset quick|default|full   how much to sweep (default: default)\n"
      "  --out PATH                    report file (default: "
      "results/<host>_<gpu>_<UTC time>.json)\n"
      "  --devices all|LIST            GPU ordinals to use, e.g. 0,1 (default: 0)\n"
      "  --filter REGEX                only cases whose name matches\n"
      "  --pinned-limit SIZE           cap on pinned host memory (default: half of available)\n"
      "  --profile                     a few iterations per case, once: for profilers "
      "(scripts/profile)\n"
      "  --trace FILE.json             built-in timeline (Chrome trace JSON) and checks of the\n"
      "                                cases' claims against it; implies --profile\n"
      "  --watchdog SECONDS            stop a pipeline case when no batch completes for this "
      "long (default: 30)\n"
      "  --benchmark_*                 passed to Google Benchmark, e.g. "
      "--benchmark_repetitions=5\n"
      "\nexit codes: 0 done, 1 a case failed (wrong data, a CUDA error, a stall), 2 bad input, "
      "130 interrupted (Ctrl-C; the report of what completed is written)\n");
}

const h2d::Command* find_command(const std::string& name) {
  static const std::vector<h2d::Command> commands = h2d::registered_commands();
  for (const h2d::Command& command : commands) {
    if (command.name == name) {
      return &command;
    }
  }
  return nullptr;
}

int dispatch(const std::vector<std::string>& words, const std::string& program) {
  const h2d::Command* run = find_command("run");
  if (words.empty()) {
    return run->handler({}, program);
  }
  const std::string& first = words.front();
  if (first == "help" || first == "--help" || first == "-h") {
    print_usage();
    return 0;
  }
  if (first == "version" || first == "--version") {
    fmt::print("h2dbench {} ({})\n", h2d::kVersion, h2d::kGitSha);
    return 0;
  }
  if (const h2d::Command* command = find_command(first)) {
    return command->handler(std::vector<std::string>(words.begin() + 1, words.end()), program);
  }
  if (first.rfind("--", 0) == 0) {
    return run->handler(words, program);  // `h2dbench --preset quick` means run
  }
  std::string valid;
  for (const h2d::Command& command : h2d::registered_commands()) {
    valid += command.name + ", ";
  }
  throw h2d::UsageError(fmt::format(
      "unknown command '{}' (valid: {}help, version; see h2dbench --help)", first, valid));
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> words(argv + 1, argv + argc);
  try {
    return dispatch(words, argv[0]);
  } catch (const h2d::UsageError& error) {
    fmt::print(stderr, "h2dbench: error: {}\n", error.what());
    return 2;
  } catch (const std::exception& error) {
    fmt::print(stderr, "h2dbench: fatal: {}\n", error.what());
    return 1;
  }
}
