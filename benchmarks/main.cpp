// h2dbench: measures how to move data from host memory onto GPUs. See README.md.

#include <fmt/format.h>

#include <exception>
#include <string>
#include <vector>

#include "benchmarks/commands.hpp"
#include "h2d/version.hpp"
#include "harness/usage_error.hpp"

namespace {

constexpr const char* kUsage = R"(usage: h2dbench [COMMAND] [OPTIONS]

commands:
  run        run the benchmark suite and write a report (the default when no command is given)
  list       print the cases a run would execute
  help       this text
  version    the version and git commit

run options:
  --preset quick|default|full   how much to sweep (default: default)
  --out PATH                    report file (default: results/<host>_<gpu>_<UTC time>.json)
  --devices all|LIST            GPU ordinals to use, e.g. 0,1 (default: 0)
  --filter REGEX                only cases whose name matches
  --pinned-limit SIZE           cap on pinned host memory (default: half of available memory)
  --benchmark_*                 passed to Google Benchmark (e.g. --benchmark_repetitions=5)

list options: --preset, --filter, --devices

exit codes: 0 done, 1 a case failed (wrong data or a CUDA error), 2 bad input
)";

int dispatch(const std::vector<std::string>& words, const std::string& program) {
  if (words.empty()) {
    return h2d::run_command({}, program);
  }
  const std::string& command = words.front();
  const std::vector<std::string> rest(words.begin() + 1, words.end());
  if (command == "help" || command == "--help" || command == "-h") {
    fmt::print("{}", kUsage);
    return 0;
  }
  if (command == "version" || command == "--version") {
    fmt::print("h2dbench {} ({})\n", h2d::kVersion, h2d::kGitSha);
    return 0;
  }
  if (command == "run") {
    return h2d::run_command(rest, program);
  }
  if (command == "list") {
    return h2d::list_command(rest);
  }
  if (command.rfind("--", 0) == 0) {
    return h2d::run_command(words, program);  // `h2dbench --preset quick` means run
  }
  throw h2d::UsageError(fmt::format(
      "unknown command '{}' (valid: run, list, help, version; see h2dbench --help)", command));
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
