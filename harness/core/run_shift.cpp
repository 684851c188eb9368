#include "harness/core/run_shift.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "harness/core/student_t.hpp"

namespace h2d {
namespace {

struct LogMoments {
  double mean = 0;
  double squares = 0;  // sum of squared deviations from the mean
};

LogMoments log_moments(const std::vector<double>& values) {
  LogMoments m;
  for (const double v : values) {
    if (!(v > 0) || !std::isfinite(v)) {
      throw std::invalid_argument("run_shift needs positive, finite run values");
    }
    m.mean += std::log(v);
  }
  m.mean /= static_cast<double>(values.size());
  for (const double v : values) {
    m.squares += (std::log(v) - m.mean) * (std::log(v) - m.mean);
  }
  return m;
}

}  // namespace

RunShift run_shift(const std::vector<double>& base, const std::vector<double>& other) {
  if (base.empty() || other.empty()) {
    throw std::invalid_argument("run_shift needs at least one run per side");
  }
  const LogMoments b = log_moments(base);
  const LogMoments o = log_moments(other);
  RunShift shift;
  shift.base_runs = base.size();
  shift.other_runs = other.size();
  shift.log_shift = o.mean - b.mean;
  shift.pooled.df = static_cast<double>(base.size() + other.size()) - 2;
  shift.pooled.variance = shift.pooled.df > 0 ? (b.squares + o.squares) / shift.pooled.df : 0;
  shift.standard_factor =
      std::sqrt(1.0 / static_cast<double>(base.size()) + 1.0 / static_cast<double>(other.size()));
  return shift;
}

ShiftTest test_shift(const RunShift& shift, const SampleVariance& variance, double log_low,
                     double log_high, double confidence) {
  if (!(variance.df > 0) || !(confidence > 0 && confidence < 1)) {
    throw std::invalid_argument("test_shift needs a variance with df > 0 and 0 < confidence < 1");
  }
  const double se = std::sqrt(std::max(variance.variance, 0.0)) * shift.standard_factor;
  ShiftTest test;
  if (se > 0) {
    test.p_below = student_t_upper_tail((log_low - shift.log_shift) / se, variance.df);
    test.p_above = student_t_upper_tail((shift.log_shift - log_high) / se, variance.df);
  } else {  // identical runs on both sides: the shift is exactly what it is
    test.p_below = shift.log_shift < log_low ? 0 : 1;
    test.p_above = shift.log_shift > log_high ? 0 : 1;
  }
  const double half = student_t_quantile_upper((1 - confidence) / 2, variance.df) * se;
  test.low = shift.log_shift - half;
  test.high = shift.log_shift + half;
  return test;
}

}  // namespace h2d
