#pragma once

#include <cstddef>
#include <regex>
#include <string>

namespace h2d {

// std::regex compiles recursively: a pattern of ~100k characters overflows the stack and the
// process dies with a segfault. No filter over case names needs more than this.
constexpr std::size_t kMaxFilterChars = 4096;

// A user's filter (--filter, --benchmark_filter) as a std::regex (ECMAScript; empty matches
// everything). Throws UsageError naming `flag`: not a valid regular expression, or too long.
std::regex compile_filter(const std::string& flag, const std::string& pattern);

}  // namespace h2d
