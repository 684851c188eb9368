#pragma once

#include <cstddef>
#include <vector>

namespace h2d {

// Two-sided Mann-Whitney U test with the normal approximation, tie correction and continuity
// correction (as scipy.stats.mannwhitneyu(method="asymptotic") and Google Benchmark's
// compare.py). Used by the summary to tell strategies of one run apart from noise; never across
// runs (compare: harness/report/run_verdict).
struct MannWhitneyResult {
  double u = 0;        // U of the first sample: pairs (a, b) with a > b, ties counting 1/2
  double z = 0;        // standardized |U - mean|, after the continuity correction
  double p_value = 1;  // two-sided; 1 when every value is tied
};

// Throws std::invalid_argument when either sample is empty.
MannWhitneyResult mann_whitney_u(const std::vector<double>& a, const std::vector<double>& b);

// The smallest sample size per side for which compare trusts the normal approximation.
inline constexpr std::size_t kMinUTestRepetitions = 5;

}  // namespace h2d
