#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace h2d {

// Parses Google Benchmark's JSON output. GB writes non-finite numbers as bare NaN / Infinity
// (e.g. the cv aggregate of a counter whose mean is 0), which is not JSON; those tokens become
// null here. Throws nlohmann::json::parse_error for anything else that is not JSON.
nlohmann::json parse_benchmark_json(const std::string& text);

}  // namespace h2d
