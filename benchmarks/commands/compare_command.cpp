// h2dbench compare: reports from several machines (or runs) side by side, noise-aware verdicts.

#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>

#include "benchmarks/commands/commands.hpp"
#include "harness/cli/compare_options.hpp"
#include "harness/report/comparison.hpp"
#include "harness/report/comparison_format.hpp"
#include "harness/report/report_file.hpp"

namespace h2d {
namespace {

bool stdout_wants_colour() {
  return isatty(STDOUT_FILENO) != 0 && std::getenv("NO_COLOR") == nullptr;
}

int compare_command(const std::vector<std::string>& args, const std::string& /*program*/) {
  const CompareCommandOptions options = parse_compare_options(args);
  std::vector<std::vector<Report>> sides;
  for (const std::vector<std::string>& paths : options.sides) {
    std::vector<Report>& runs = sides.emplace_back();
    for (const std::string& path : paths) {
      runs.push_back(read_report(path));  // UsageError naming the file: exit 2
    }
  }
  const Comparison comparison = compare_sides(sides, options.compare);
  fmt::print("{}", format_comparison(comparison, options.format, stdout_wants_colour()));
  if (!options.fail_on_regression) {
    return 0;
  }
  const std::vector<std::string> regressions = reliable_regressions(comparison);
  for (const std::string& regression : regressions) {
    fmt::print(stderr, "regression: {}\n", regression);
  }
  return regressions.empty() ? 0 : 1;
}

[[maybe_unused]] const bool compare_command_registered = register_command({
    "compare",
    "compare A.json B.json [C.json ...] | A1.json A2.json A3.json --vs B1.json B2.json B3.json "
    "[--format table|markdown|csv|json] [--filter REGEX] [--threshold PCT (default 5)] "
    "[--fail-on-regression] [--allow-simulated]",
    "put reports side by side; with 3 runs a side (--vs), verdicts over runs that a gate can "
    "trust",
    compare_command,
});

}  // namespace
}  // namespace h2d
