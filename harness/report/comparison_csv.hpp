#pragma once

#include <string>

#include "harness/report/comparison.hpp"

namespace h2d {

// The comparison as CSV: one row per case and report, with value, verdict and reason.
std::string format_csv(const Comparison& c);

}  // namespace h2d
