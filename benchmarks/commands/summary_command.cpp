// h2dbench summary: the end-of-run verdict, for a report that already exists.

#include <fmt/format.h>

#include "benchmarks/commands/commands.hpp"
#include "harness/cli/command_line.hpp"
#include "harness/core/usage_error.hpp"
#include "harness/report/report_file.hpp"
#include "harness/report/summary.hpp"

namespace h2d {
namespace {

int summary_command(const std::vector<std::string>& args, const std::string& /*program*/) {
  const ParsedArgs parsed = parse_command_line({"summary", {}, "REPORT.json", ""}, args);
  if (parsed.operands.size() != 1) {
    throw UsageError("summary takes one report: h2dbench summary REPORT.json");
  }
  const Report report = read_report(parsed.operands.front());
  fmt::print("{}", format_summary(summarize_report(report.document)));
  return 0;
}

[[maybe_unused]] const bool summary_command_registered = register_command({
    "summary",
    "summary REPORT.json",
    "the verdict of a report: best strategy per workload, speed-ups, warnings",
    summary_command,
});

}  // namespace
}  // namespace h2d
