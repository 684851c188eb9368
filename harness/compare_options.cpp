#include "harness/compare_options.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>

#include "harness/usage_error.hpp"

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
  CompareCommandOptions options;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& word = args[i];
    if (word.rfind("--", 0) != 0 || word == "--") {
      options.reports.push_back(word);
      continue;
    }
    const std::size_t equals = word.find('=');
    const std::string flag = word.substr(0, equals);
    const auto value = [&]() -> std::string {
      if (equals != std::string::npos) {
        return word.substr(equals + 1);
      }
      if (i + 1 >= args.size()) {
        throw UsageError(fmt::format("{} needs a value", flag));
      }
      return args[++i];
    };
    if (flag == "--format") {
      options.format = parse_compare_format(value());
    } else if (flag == "--filter") {
      options.compare.filter = value();
    } else if (flag == "--threshold") {
      options.compare.verdict.threshold_pct = parse_threshold_pct(value());
    } else if (flag == "--fail-on-regression" && equals == std::string::npos) {
      options.fail_on_regression = true;
    } else {
      throw UsageError(fmt::format(
          "compare: unknown option '{}' (valid: --format table|markdown|csv|json, --filter "
          "REGEX, --threshold PCT, --fail-on-regression)",
          word));
    }
  }
  if (options.reports.size() < 2) {
    throw UsageError(
        "compare needs at least two reports: h2dbench compare A.json B.json [C.json ...] "
        "(h2dbench summary REPORT.json describes one)");
  }
  return options;
}

}  // namespace h2d
