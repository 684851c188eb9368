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

namespace {

const CommandSyntax kCompareSyntax{"compare",
                                   {{"--format", "table, markdown, csv or json"},
                                    {"--filter", "a regular expression"},
                                    {"--threshold", "a percentage such as 5"},
                                    {"--fail-on-regression", ""},
                                    {"--allow-simulated", ""}},
                                   "REPORT.json",
                                   ""};

constexpr const char* kVsUsage =
    "h2dbench compare A1.json [A2.json ...] --vs B1.json [B2.json ...] (the runs of each side)";

// The words before and after "--vs" (which is not an option of its own: it splits the operands).
struct VsSplit {
  std::vector<std::string> before;
  std::vector<std::string> after;
  bool present = false;
};

VsSplit split_at_vs(const std::vector<std::string>& args) {
  VsSplit split;
  bool operands_only = false;  // after "--" every word is a report, even one named --vs
  for (const std::string& word : args) {
    operands_only = operands_only || word == "--";
    if (!operands_only && (word == "--vs" || word.rfind("--vs=", 0) == 0)) {
      if (split.present) {
        throw UsageError(fmt::format("--vs is given twice; use it once: {}", kVsUsage));
      }
      if (word != "--vs") {
        throw UsageError(fmt::format("--vs takes no value; reports follow it: {}", kVsUsage));
      }
      split.present = true;
      continue;
    }
    (split.present ? split.after : split.before).push_back(word);
  }
  return split;
}

}  // namespace

CompareCommandOptions parse_compare_options(const std::vector<std::string>& args) {
  const VsSplit split = split_at_vs(args);
  ParsedArgs parsed = parse_command_line(kCompareSyntax, split.before);
  std::vector<std::string> vs_reports;
  if (split.present) {
    const ParsedArgs after = parse_command_line(kCompareSyntax, split.after);
    for (const auto& [flag, value] : after.values) {
      if (!parsed.values.emplace(flag, value).second) {
        throw UsageError(fmt::format("{} is given twice; give it once", flag));
      }
    }
    vs_reports = after.operands;
  }
  CompareCommandOptions options;
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
  if (split.present) {
    if (parsed.operands.empty() || vs_reports.empty()) {
      throw UsageError(
          fmt::format("--vs needs at least one report on each side ({} before, {} "
                      "after): {}",
                      parsed.operands.size(), vs_reports.size(), kVsUsage));
    }
    options.sides = {parsed.operands, vs_reports};
    return options;
  }
  if (parsed.operands.size() < 2) {
    throw UsageError(
        "compare needs at least two reports: h2dbench compare A.json B.json [C.json ...] "
        "(h2dbench summary REPORT.json describes one)");
  }
  for (const std::string& report : parsed.operands) {
    options.sides.push_back({report});
  }
  return options;
}

}  // namespace h2d
