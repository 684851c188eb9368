#include "harness/core/filter_regex.hpp"

#include <fmt/format.h>

#include "harness/core/usage_error.hpp"

namespace h2d {

std::regex compile_filter(const std::string& flag, const std::string& pattern) {
  if (pattern.size() > kMaxFilterChars) {
    throw UsageError(
        fmt::format("{} is {} characters long; give a regular expression of at most {}", flag,
                    pattern.size(), kMaxFilterChars));
  }
  try {
    return std::regex(pattern.empty() ? std::string(".*") : pattern);
  } catch (const std::regex_error& error) {
    throw UsageError(
        fmt::format("{} '{}' is not a valid regular expression: {}", flag, pattern, error.what()));
  }
}

}  // namespace h2d
