#pragma once

#include <string_view>

namespace h2d {

// Parses a positive duration: "60", "60s", "1.5m", "2h", "500ms" (a bare number is seconds).
// Returns seconds. Throws std::invalid_argument saying what would be valid.
double parse_duration_s(std::string_view text);

}  // namespace h2d
