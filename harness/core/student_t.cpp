#include "harness/core/student_t.hpp"

#include <cmath>
#include <stdexcept>

namespace h2d {
namespace {

// Continued fraction of the regularized incomplete beta function (modified Lentz), which
// converges fast for x < (a + 1) / (a + b + 2).
double beta_continued_fraction(double a, double b, double x) {
  constexpr double kTiny = 1e-300;
  constexpr double kEpsilon = 1e-15;
  double c = 1;
  double d = 1 - (a + b) * x / (a + 1);
  d = 1 / (std::abs(d) < kTiny ? kTiny : d);
  double result = d;
  for (int m = 1; m <= 500; ++m) {
    const double m2 = 2.0 * m;
    for (const double numerator : {m * (b - m) * x / ((a + m2 - 1) * (a + m2)),
                                   -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1))}) {
      d = 1 + numerator * d;
      d = 1 / (std::abs(d) < kTiny ? kTiny : d);
      c = 1 + numerator / c;
      c = std::abs(c) < kTiny ? kTiny : c;
      result *= c * d;
    }
    if (std::abs(c * d - 1) < kEpsilon) {
      break;
    }
  }
  return result;
}

// I_x(a, b), the regularized incomplete beta function.
double regularized_beta(double a, double b, double x) {
  if (x <= 0) {
    return 0;
  }
  if (x >= 1) {
    return 1;
  }
  const double log_front =
      std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x);
  if (x < (a + 1) / (a + b + 2)) {
    return std::exp(log_front) * beta_continued_fraction(a, b, x) / a;
  }
  return 1 - std::exp(log_front) * beta_continued_fraction(b, a, 1 - x) / b;
}

}  // namespace

double student_t_upper_tail(double t, double df) {
  if (!(df > 0) || std::isnan(t)) {
    throw std::invalid_argument("student_t_upper_tail needs df > 0 and a number t");
  }
  if (std::isinf(t)) {
    return t > 0 ? 0 : 1;
  }
  if (df > 1e9) {  // the normal limit (an infinitely precise variance)
    return std::erfc(t / std::sqrt(2.0)) / 2;
  }
  // P(|T| > |t|) = I_{df/(df+t^2)}(df/2, 1/2).
  const double two_sided = regularized_beta(df / 2, 0.5, df / (df + t * t));
  return t >= 0 ? two_sided / 2 : 1 - two_sided / 2;
}

double student_t_quantile_upper(double upper_tail, double df) {
  if (!(upper_tail > 0 && upper_tail < 1) || !(df > 0)) {
    throw std::invalid_argument("student_t_quantile_upper needs 0 < upper_tail < 1 and df > 0");
  }
  // Bracket, then bisect the monotone tail to a relative 1e-9: ~40 steps, cheap enough for the
  // few hundred intervals one comparison prints and the calibration test's thousands.
  const bool upper = upper_tail <= 0.5;
  const double tail = upper ? upper_tail : 1 - upper_tail;
  double low = 0;
  double high = 1;
  while (student_t_upper_tail(high, df) > tail && high < 1e12) {
    low = high;
    high *= 2;
  }
  while (high - low > 1e-9 * high) {
    const double mid = (low + high) / 2;
    if (student_t_upper_tail(mid, df) > tail) {
      low = mid;
    } else {
      high = mid;
    }
  }
  return upper ? (low + high) / 2 : -(low + high) / 2;
}

}  // namespace h2d
