#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "harness/report/comparison.hpp"

namespace h2d {

enum class CompareFormat { table, markdown, csv, json };

// Throws UsageError naming --format and the valid values.
CompareFormat parse_compare_format(const std::string& text);

// The whole comparison as text in `format`: machines side by side, one section per family with
// values, speed-ups against the first report, verdicts and the geometric mean, then the cases
// not in every report. `colour` applies to the table format only.
std::string format_comparison(const Comparison& comparison, CompareFormat format, bool colour);

nlohmann::json comparison_to_json(const Comparison& comparison);

}  // namespace h2d
