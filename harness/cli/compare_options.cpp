#include "harness/cli/compare_options.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>

#include "harness/cli/command_line.hpp"
#include "harness/core/filter_regex.hpp"
#include "harness/core/usage_error.hpp"

namespace h2d {

double parse_threshold_pct(const std::string& text) {
  std::string number = text;
  if (!number.empty() && number.back() == '%') {
    number.pop_back();
  }
  char* end = nullptr;
  const double value = number.empty() ? NAN : std::strtod(number.c_str(), &end);
  if (number.empty() || end != number.c_str() + number.size() || !std::isfinite(value) ||
      value < 0 || value >= 100) {
    throw UsageError(fmt::format(
        "--threshold '{}' is not valid; give a percentage from 0 to below 100, e.g. 5 or 2.5",
        text));
  }
  return value;
}

CompareCommandOptions parse_compare_options(const std::vector<std::string>& args) {
  const ParsedArgs parsed = parse_command_line({"compare",
                                                {{"--format", "table, markdown, csv or json"},
                                                 {"--filter", "a regular expression"},
                                                 {"--threshold", "a percentage such as 5"},
                                                 {"--fail-on-regression", ""},
                                                 {"--allow-simulated", ""}},
                                                "REPORT.json",
                                                ""},
                                               args);
  CompareCommandOptions options;
  options.reports = parsed.operands;
  if (const auto format = parsed.get("--format")) {
    options.format = parse_compare_format(*format);
  }
  if (const auto filter = parsed.get("--filter")) {
    options.compare.filter = *filter;
    compile_filter("--filter", *filter);  // a bad filter is named before any report is read
  }
  if (const auto threshold = parsed.get("--threshold")) {
    options.compare.verdict.threshold_pct = parse_threshold_pct(*threshold);
  }
  options.fail_on_regression = parsed.has("--fail-on-regression");
  options.compare.allow_simulated = parsed.has("--allow-simulated");
  if (options.reports.size() < 2) {
    throw UsageError(
        "compare needs at least two reports: h2dbench compare A.json B.json [C.json ...] "
        "(h2dbench summary REPORT.json describes one)");
  }
  return options;
}

}  // namespace h2d
