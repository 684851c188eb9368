#pragma once

#include <optional>
#include <vector>

namespace h2d {

// A sample variance and its degrees of freedom (one case's spread of log run medians).
struct SampleVariance {
  double variance = 0;
  double df = 0;
};

// What the cases of one comparison say together about the variance of any one of them: a scaled
// inverse chi-square prior (Smyth 2004, limma's "moderated t"). With 3 runs a side a case has 4
// degrees of freedom and its own variance is a poor guess (its t needs 7.2 to reach p 0.001); the
// prior adds `df` more where the cases agree and almost none where their noise differs.
struct VariancePrior {
  double variance = 0;
  double df = 0;  // 0: nothing to borrow; may be infinite when every case has the same noise
};

// Fits the prior by moments of the log variances. nullopt with fewer than 3 usable variances
// (df > 0): too few to say how the cases' noise is spread. Variances at or below zero count as
// the smallest positive one seen (identical run medians: a counted figure, not a timed one).
std::optional<VariancePrior> fit_variance_prior(const std::vector<SampleVariance>& variances);

// The posterior variance of one case and its degrees of freedom:
// (prior.df * prior.variance + own.df * own.variance) / (prior.df + own.df).
SampleVariance moderate(const SampleVariance& own, const std::optional<VariancePrior>& prior);

}  // namespace h2d
