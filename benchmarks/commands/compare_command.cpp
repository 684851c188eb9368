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
    "  --vs                  the reports before it are runs of side A, those after it runs of\n"
    "                        side B (one machine a side); 3 runs a side confirm a change\n"
    "  --threshold PCT       a change must be shown beyond this to be slower or faster\n"
    "                        (default 5)\n"
    "  --fail-on-regression  exit 1 when a case is confirmed slower; false alarms at most 5%\n"
    "                        per comparison of one build's runs (Holm over all cases)\n"
    "  --filter REGEX        only cases whose name matches\n"
    "  --format F            table (default), markdown, csv or json\n"
    "  --allow-simulated     put simulated-GPU reports beside real ones\n"
    "\n"
    "With one run a side a change is shown with its size, marked '?': unconfirmed, never a\n"
    "regression. Exit codes: 0 done, 1 a confirmed regression (--fail-on-regression), 2 bad "
    "input.\n",
});

}  // namespace
}  // namespace h2d
