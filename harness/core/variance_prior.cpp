#include "harness/core/variance_prior.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace h2d {
namespace {

// psi(x), psi'(x) and psi''(x) for x > 0: the recurrence up to x >= 6, then the asymptotic series.
double digamma(double x) {
  double shift = 0;
  for (; x < 6; x += 1) {
    shift -= 1 / x;
  }
  const double r = 1 / (x * x);
  return shift + std::log(x) - 0.5 / x - r * (1.0 / 12 - r * (1.0 / 120 - r / 252));
}

double trigamma(double x) {
  double shift = 0;
  for (; x < 6; x += 1) {
    shift += 1 / (x * x);
  }
  const double r = 1 / (x * x);
  return shift + 1 / x + r / 2 + r / x * (1.0 / 6 - r * (1.0 / 30 - r * (1.0 / 42 - r / 30)));
}

double tetragamma(double x) {
  double shift = 0;
  for (; x < 6; x += 1) {
    shift -= 2 / (x * x * x);
  }
  const double r = 1 / (x * x);
  return shift - r - r / x - r * r * (0.5 - r * (1.0 / 6 - r * (1.0 / 6 - r * 0.3)));
}

// The y with trigamma(y) = x (Smyth's Newton iteration, as limma's trigammaInverse).
double trigamma_inverse(double x) {
  if (x > 1e7) {
    return 1 / std::sqrt(x);
  }
  if (x < 1e-6) {
    return 1 / x;
  }
  double y = 0.5 + 1 / x;
  for (int i = 0; i < 50; ++i) {
    const double tri = trigamma(y);
    const double step = tri * (1 - tri / x) / tetragamma(y);
    y += step;
    if (-step / y < 1e-8) {
      break;
    }
  }
  return y;
}

}  // namespace

std::optional<VariancePrior> fit_variance_prior(const std::vector<SampleVariance>& variances) {
  std::vector<SampleVariance> usable;
  double smallest = std::numeric_limits<double>::infinity();
  for (const SampleVariance& v : variances) {
    if (v.df > 0 && std::isfinite(v.variance)) {
      usable.push_back(v);
      if (v.variance > 0) {
        smallest = std::min(smallest, v.variance);
      }
    }
  }
  if (usable.size() < 3 || !std::isfinite(smallest)) {
    return std::nullopt;
  }
  // e = log s^2 - E[log chi2_df / df] has mean log s0^2 - E[log chi2_d0 / d0] and variance
  // trigamma(d0/2) + the sampling part trigamma(df/2).
  std::vector<double> e;
  double sampling_variance = 0;
  for (const SampleVariance& v : usable) {
    e.push_back(std::log(std::max(v.variance, smallest)) - digamma(v.df / 2) + std::log(v.df / 2));
    sampling_variance += trigamma(v.df / 2);
  }
  const double n = static_cast<double>(e.size());
  sampling_variance /= n;
  double mean = 0;
  for (const double x : e) {
    mean += x;
  }
  mean /= n;
  double spread = 0;
  for (const double x : e) {
    spread += (x - mean) * (x - mean);
  }
  spread /= n - 1;
  const double excess = spread - sampling_variance;
  VariancePrior prior;
  if (excess <= 0) {
    prior.df = std::numeric_limits<double>::infinity();
    prior.variance = std::exp(mean);
  } else {
    prior.df = 2 * trigamma_inverse(excess);
    prior.variance = std::exp(mean + digamma(prior.df / 2) - std::log(prior.df / 2));
  }
  return prior;
}

SampleVariance moderate(const SampleVariance& own, const std::optional<VariancePrior>& prior) {
  if (!prior || prior->df <= 0) {
    return own;
  }
  if (std::isinf(prior->df)) {
    return {prior->variance, std::numeric_limits<double>::infinity()};
  }
  return {(prior->df * prior->variance + own.df * own.variance) / (prior->df + own.df),
          prior->df + own.df};
}

}  // namespace h2d
