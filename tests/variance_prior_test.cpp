#include "harness/core/variance_prior.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace h2d {
namespace {

// Sample variances of `cases` cases with 4 df each, the true variance of case i from `truth(i)`.
template <typename Truth>
std::vector<SampleVariance> sample_variances(std::size_t cases, Truth truth) {
  std::mt19937_64 random(7);
  std::vector<SampleVariance> out;
  for (std::size_t i = 0; i < cases; ++i) {
    std::chi_squared_distribution<double> chi2(4);
    out.push_back({truth(i) * chi2(random) / 4, 4});
  }
  return out;
}

TEST(VariancePrior, CasesWithOneNoiseLendEachOtherMuch) {
  const auto prior = fit_variance_prior(sample_variances(200, [](std::size_t) { return 4e-4; }));
  ASSERT_TRUE(prior.has_value());
  EXPECT_GT(prior->df, 20);
  EXPECT_NEAR(prior->variance, 4e-4, 1e-4);
}

TEST(VariancePrior, CasesWithVeryDifferentNoiseLendLittle) {
  const auto prior = fit_variance_prior(
      sample_variances(200, [](std::size_t i) { return i % 2 == 0 ? 1e-4 : 1e-1; }));
  ASSERT_TRUE(prior.has_value());
  EXPECT_LT(prior->df, 2);
}

TEST(VariancePrior, ModerationWeighsByDegreesOfFreedom) {
  EXPECT_FALSE(fit_variance_prior({{1, 4}, {2, 4}}).has_value());  // too few to say
  const SampleVariance own{4, 4};
  const SampleVariance mixed = moderate(own, VariancePrior{1, 12});
  EXPECT_DOUBLE_EQ(mixed.variance, (12 * 1 + 4 * 4) / 16.0);
  EXPECT_DOUBLE_EQ(mixed.df, 16);
  EXPECT_DOUBLE_EQ(moderate(own, std::nullopt).variance, 4);
  EXPECT_TRUE(std::isinf(moderate(own, VariancePrior{1, INFINITY}).df));
}

}  // namespace
}  // namespace h2d
