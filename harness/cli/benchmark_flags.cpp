#include "harness/cli/benchmark_flags.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <regex>
#include <stdexcept>

#include "harness/core/filter_regex.hpp"
#include "harness/core/usage_error.hpp"

namespace h2d {
namespace {

enum class Kind {
  boolean,          // true/false (a bare flag means true)
  colour,           // a boolean or "auto"
  positive_int,     // repetitions
  positive_double,  // seconds
  min_time,         // seconds above 0, with or without Google Benchmark 1.8's "s" suffix
  nonneg_double,    // seconds, 0 allowed
  regex,            // --benchmark_filter
  key_values,       // k=v,k=v
  text,             // passed on as it is
  refused,          // fights h2dbench's own output: `why` says what to use instead
};

struct FlagRule {
  const char* name;  // after "--benchmark_"
  Kind kind;
  const char* note;  // a valid value; for a refused flag, what to use instead
};

// Google Benchmark 1.7's flags (benchmark --help).
constexpr FlagRule kRules[] = {
    {"filter", Kind::regex, "host/memcpy"},
    {"min_time", Kind::min_time, "0.5"},
    {"min_warmup_time", Kind::nonneg_double, "0.1"},
    {"repetitions", Kind::positive_int, "5"},
    {"enable_random_interleaving", Kind::boolean, "true"},
    {"report_aggregates_only", Kind::boolean, "true"},
    {"display_aggregates_only", Kind::refused,
     "h2dbench's table shows only the aggregates when there are repetitions, and the report "
     "keeps every repetition (Google Benchmark would drop them from the report too)"},
    {"color", Kind::colour, "false"},
    {"counters_tabular", Kind::boolean, "false"},
    {"perf_counters", Kind::text, "CYCLES"},
    {"context", Kind::key_values, "rig=lab1"},
    {"list_tests", Kind::refused,
     "h2dbench list [--preset P] [--filter REGEX] prints the cases a run would execute"},
    {"format", Kind::refused,
     "h2dbench prints its own table, and the report (--out) is Google Benchmark JSON"},
    {"out", Kind::refused,
     "the report goes to --out PATH (Google Benchmark JSON with h2dbench's context)"},
    {"out_format", Kind::refused,
     "the report goes to --out PATH (Google Benchmark JSON with h2dbench's context)"},
    {"time_unit", Kind::refused, "h2dbench reports every time in microseconds"},
};

constexpr const char* kPrefix = "--benchmark_";

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

std::optional<double> whole_double(const std::string& text) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || std::isspace(static_cast<unsigned char>(text.front())) ||
      end != text.c_str() + text.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

// --benchmark_min_time's seconds, with or without the "s" suffix of Google Benchmark 1.8; nothing
// when it is no number above 0. The flag check and the stopping rule both read it here.
std::optional<double> min_time_value(const std::string& value) {
  const std::string number =
      value.size() > 1 && value.back() == 's' ? value.substr(0, value.size() - 1) : value;
  const auto seconds = whole_double(number);
  return seconds && *seconds > 0 ? seconds : std::nullopt;
}

constexpr const char* kMinTimeHint = "use a number of seconds above 0, such as 0.5 or 0.5s";

// Why `value` is not valid for `kind`, or "" when it is.
std::string value_problem(Kind kind, const std::string& value) {
  switch (kind) {
    case Kind::boolean:
    case Kind::colour:
      if (kind == Kind::colour && lower(value) == "auto") {
        return "";
      }
      try {
        parse_benchmark_bool(value);
        return "";
      } catch (const std::invalid_argument&) {
        return kind == Kind::colour ? "use auto, true or false" : "use true or false";
      }
    case Kind::positive_int: {
      const bool digits = !value.empty() && value.size() <= 9 &&
                          std::all_of(value.begin(), value.end(),
                                      [](unsigned char c) { return std::isdigit(c) != 0; });
      return digits && std::stol(value) >= 1 ? "" : "use a whole number of at least 1";
    }
    case Kind::positive_double: {
      const auto seconds = whole_double(value);
      return seconds && *seconds > 0 ? "" : "use a number of seconds above 0, such as 0.5";
    }
    case Kind::min_time:
      return min_time_value(value) ? "" : kMinTimeHint;
    case Kind::nonneg_double: {
      const auto seconds = whole_double(value);
      return seconds && *seconds >= 0 ? "" : "use a number of seconds, 0 or more, such as 0.5";
    }
    case Kind::regex:  // throws its own UsageError
      compile_filter("--benchmark_filter", value.rfind('-', 0) == 0 ? value.substr(1) : value);
      return "";
    case Kind::key_values: {
      std::size_t start = 0;
      while (start <= value.size()) {
        const std::size_t comma = std::min(value.find(',', start), value.size());
        const std::string pair = value.substr(start, comma - start);
        const std::size_t equals = pair.find('=');
        if (equals == std::string::npos || equals == 0) {
          return "use key=value pairs separated by commas, such as rig=lab1,run=3";
        }
        start = comma + 1;
      }
      return "";
    }
    case Kind::text:
    case Kind::refused:
      return "";
  }
  return "";
}

}  // namespace

bool parse_benchmark_bool(const std::string& value) {
  const std::string word = lower(value);
  if (word == "true" || word == "yes" || word == "on" || word == "1") {
    return true;
  }
  if (word == "false" || word == "no" || word == "off" || word == "0") {
    return false;
  }
  throw std::invalid_argument(fmt::format("'{}' is not true or false", value));
}

std::optional<std::string> benchmark_flag(const std::vector<std::string>& flags,
                                          const std::string& name) {
  const std::string bare = kPrefix + name;
  for (const std::string& flag : flags) {
    if (flag == bare) {
      return std::string("true");
    }
    if (flag.rfind(bare + "=", 0) == 0) {
      return flag.substr(bare.size() + 1);
    }
  }
  return std::nullopt;
}

void check_benchmark_flags(const std::vector<std::string>& flags) {
  std::vector<std::string> seen;
  for (const std::string& flag : flags) {
    const std::size_t equals = flag.find('=');
    const std::string name = flag.substr(0, equals).substr(std::string(kPrefix).size());
    const auto rule = std::find_if(std::begin(kRules), std::end(kRules),
                                   [&](const FlagRule& r) { return name == r.name; });
    if (rule == std::end(kRules)) {
      std::string known;
      for (const FlagRule& r : kRules) {
        if (r.kind != Kind::refused) {
          known += fmt::format("{}{}{}", known.empty() ? "" : ", ", kPrefix, r.name);
        }
      }
      throw UsageError(fmt::format(
          "'{}' is not a Google Benchmark flag h2dbench passes on (valid: {})", flag, known));
    }
    if (rule->kind == Kind::refused) {
      throw UsageError(fmt::format("'{}' is not supported: {}", flag, rule->note));
    }
    if (std::find(seen.begin(), seen.end(), name) != seen.end()) {
      throw UsageError(fmt::format("{}{} is given twice; give it once", kPrefix, name));
    }
    seen.push_back(name);
    const bool switch_like = rule->kind == Kind::boolean || rule->kind == Kind::colour;
    if (equals == std::string::npos && !switch_like) {
      throw UsageError(
          fmt::format("{} needs its value after '=', e.g. {}={}", flag, flag, rule->note));
    }
    const std::string value = equals == std::string::npos ? "true" : flag.substr(equals + 1);
    const std::string problem =
        value.empty() ? std::string("the value is empty") : value_problem(rule->kind, value);
    if (!problem.empty()) {
      throw UsageError(fmt::format("'{}': {}", flag, problem));
    }
  }
}

double min_time_seconds(const std::string& value) {
  if (const auto seconds = min_time_value(value)) {
    return *seconds;
  }
  throw UsageError(fmt::format("'--benchmark_min_time={}': {}", value, kMinTimeHint));
}

bool benchmark_filter_matches(const std::string& filter, const std::string& name) {
  if (filter.empty() || filter == "all") {
    return true;
  }
  const bool negative = filter.front() == '-';
  const std::regex pattern(negative ? filter.substr(1) : filter);
  return std::regex_search(name, pattern) != negative;
}

}  // namespace h2d
