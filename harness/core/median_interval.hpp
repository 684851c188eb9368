#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace h2d {

// The distribution-free 95% confidence interval of the median, from order statistics: x(d) and
// x(n+1-d), d the largest rank with P(Binomial(n, 1/2) < d) <= 2.5%, cover at least 95% (up to 98%
// at the sample counts cases stop at), so each end is interpolated towards the next pair inwards as
// Hettmansperger and Sheather (1986) do, to cover about 95%. It narrows as samples grow, whatever
// their distribution (the cv does not). Under 6 samples no pair of ranks reaches 95%: the interval
// is then the whole range, and `covers_95` is false. Samples are taken in measurement order: where
// each leans on the one before (a lag-1 correlation clearly above zero), the interval is widened
// by sqrt((1 + rho) / (1 - rho)) about the median, as correlated samples know it less well.
struct MedianInterval {
  double median = 0;
  double low = 0;
  double high = 0;
  std::size_t measurements = 0;
  bool covers_95 = false;  // a pair of ranks reached the asked confidence (95% by default)
  // The larger distance from the median to an end, in % of the median (rel_ci_pct); 0 for a
  // median of 0.
  double relative_half_width_pct() const;
};

// `confidence` is the interval's nominal coverage for a fixed sample count (0.5 to 0.999); a case
// that stops as soon as its interval is narrow reports a higher one (kStoppedIntervalConfidence,
// harness/core/stopping_rule.hpp), so that its stopped interval covers 95%. Throws
// std::invalid_argument for an empty sample or a confidence outside that range.
MedianInterval median_interval(std::vector<double> samples, double confidence = 0.95);

// How well a case's median is known, as the counters every case reports: rel_ci_pct (the
// interval's relative_half_width_pct) and measurements (how many it had). The verdict's ties read
// them (harness/report/within_noise).
std::vector<std::pair<std::string, double>> interval_counters(const MedianInterval& interval);

// The counter that holds how well a case knows `figure` when the figure is not the measurement its
// stopping rule timed (h2d/batch times whole batches and reports the copy segment's GB_per_s):
// "<figure>_rel_ci_pct", in the unit of rel_ci_pct. Readers take it before rel_ci_pct for that
// figure (harness/report/case_noise, the console's case rows).
std::string figure_interval_counter(const std::string& figure);

}  // namespace h2d
