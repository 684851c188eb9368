#include "harness/report/verdict.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "harness/core/mann_whitney.hpp"
#include "harness/core/statistics.hpp"

namespace h2d {
namespace {

// The interval the repetitions span: [min, max], or median +- stddev for aggregates only.
std::pair<double, double> spread(const Repetitions& r) {
  if (r.stddev && r.values.size() < 2) {
    const double median = summarize(r.values).median;
    return {median - *r.stddev, median + *r.stddev};
  }
  const auto [low, high] = std::minmax_element(r.values.begin(), r.values.end());
  return {*low, *high};
}

}  // namespace

Judgement judge(const Repetitions& base, const Repetitions& other, Better better,
                const VerdictOptions& options) {
  if (base.values.empty() || other.values.empty()) {
    throw std::invalid_argument("judge needs at least one value per side");
  }
  const double base_median = summarize(base.values).median;
  const double other_median = summarize(other.values).median;
  if (!(base_median > 0) || !(other_median > 0)) {
    throw std::invalid_argument("judge needs positive values");
  }
  Judgement result;
  result.ratio = other_median / base_median;
  result.speedup = better == Better::higher ? result.ratio : 1 / result.ratio;
  result.change_pct = std::abs(other_median - base_median) / base_median * 100;
  const Verdict direction = result.speedup > 1 ? Verdict::faster : Verdict::slower;
  const std::size_t base_count = std::max(base.count, base.values.size());
  const std::size_t other_count = std::max(other.count, other.values.size());
  const bool repeated = base_count >= 2 && other_count >= 2;

  if (result.change_pct < options.threshold_pct) {
    result.verdict = Verdict::same;
    result.reliable = repeated || (base.half_interval && other.half_interval);
    result.reason = fmt::format("change below {:g}%", options.threshold_pct);
  } else if (base.values.size() >= kMinUTestRepetitions &&
             other.values.size() >= kMinUTestRepetitions) {
    const MannWhitneyResult test = mann_whitney_u(base.values, other.values);
    result.p_value = test.p_value;
    result.reliable = true;
    result.verdict = test.p_value < options.alpha ? direction : Verdict::same;
    result.reason = test.p_value < options.alpha
                        ? fmt::format("U test p={:.3g}", test.p_value)
                        : fmt::format("not significant, U test p={:.3g}", test.p_value);
  } else if (repeated) {
    const auto [base_low, base_high] = spread(base);
    const auto [other_low, other_high] = spread(other);
    const bool overlap = base_low <= other_high && other_low <= base_high;
    result.reliable = true;
    result.verdict = overlap ? Verdict::same : direction;
    result.reason = overlap ? fmt::format("repetitions overlap (n={}/{})", base_count, other_count)
                            : fmt::format("repetitions apart (n={}/{})", base_count, other_count);
  } else if (base.half_interval && other.half_interval) {
    const bool overlap =
        std::abs(other_median - base_median) <= *base.half_interval + *other.half_interval;
    result.reliable = true;
    result.verdict = overlap ? Verdict::same : direction;
    result.reason = fmt::format(
        "medians' 95% intervals {} (+-{:.2g}%/+-{:.2g}%)", overlap ? "overlap" : "apart",
        *base.half_interval / base_median * 100, *other.half_interval / other_median * 100);
  } else {
    result.verdict = direction;
    result.reliable = false;
    result.reason = "one measurement per side: noise unknown";
  }
  return result;
}

const char* to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::faster:
      return "faster";
    case Verdict::slower:
      return "slower";
    case Verdict::same:
      return "same";
  }
  return "same";
}

}  // namespace h2d
