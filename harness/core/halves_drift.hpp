#pragma once

#include <optional>
#include <vector>

namespace h2d {

// Whether a case's figure moved while it was measured: the medians of its first and second halves
// of measurements (in measurement order), each with its interval. A case can know its median
// well and still describe no steady state (a clock ramping up, a neighbour starting mid-case);
// its median then depends on when it stopped.
struct HalvesDrift {
  double shift_pct = 0;   // second half's median minus the first's, in % of the whole median
  bool drifting = false;  // the halves' intervals do not overlap, and they differ by more than
                          // the precision asked (a shift inside it would not change a verdict)
};

// Needs 2 x kHalfMeasurements measurements (a half's interval needs 6: median_interval); nullopt
// with fewer or for a median of 0. `confidence` is the stopping rule's interval confidence and
// `target_rel_ci_pct` its target: two 97% intervals that do not overlap are a test at well under
// 1%, so a steady case is flagged about once in several hundred.
inline constexpr std::size_t kHalfMeasurements = 6;
std::optional<HalvesDrift> halves_drift(const std::vector<double>& samples, double confidence,
                                        double target_rel_ci_pct);

}  // namespace h2d
