#include "harness/core/mann_whitney.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace h2d {
namespace {

// Reference values from scipy.stats.mannwhitneyu(a, b, alternative="two-sided",
// method="asymptotic", use_continuity=True), scipy 1.10.1.
struct Known {
  std::vector<double> a;
  std::vector<double> b;
  double u;
  double p;
};

TEST(MannWhitney, MatchesScipyReferenceValues) {
  const std::vector<Known> known{
      {{1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}, 0.0, 0.012185780355344813},
      {{1.1, 2.2, 3.3, 4.4, 5.5, 6.6}, {1.5, 2.5, 3.5, 4.5, 5.5, 6.5}, 16.5, 0.8725590308923818},
      {{1, 2, 2, 3, 3, 3, 4}, {3, 3, 4, 4, 5, 5, 6}, 6.0, 0.01785429278938296},
      {{10.0, 10.1, 10.2, 9.9, 10.05},
       {10.3, 10.4, 10.35, 10.5, 10.45, 10.6},
       0.0,
       0.00811311726556578},
      {{19, 22, 16, 29, 24}, {20, 11, 17, 12, 13}, 22.0, 0.06010280593886631},
  };
  for (const Known& k : known) {
    const MannWhitneyResult result = mann_whitney_u(k.a, k.b);
    EXPECT_DOUBLE_EQ(result.u, k.u);
    EXPECT_NEAR(result.p_value, k.p, 1e-12);
  }
}

TEST(MannWhitney, IsSymmetricInItsSamples) {
  const std::vector<double> a{19, 22, 16, 29, 24};
  const std::vector<double> b{20, 11, 17, 12, 13};
  const MannWhitneyResult forward = mann_whitney_u(a, b);
  const MannWhitneyResult backward = mann_whitney_u(b, a);
  EXPECT_DOUBLE_EQ(forward.u + backward.u, 25.0);
  EXPECT_DOUBLE_EQ(forward.p_value, backward.p_value);
}

TEST(MannWhitney, AllTiedGivesNoEvidence) {
  const MannWhitneyResult result = mann_whitney_u({5, 5, 5, 5, 5}, {5, 5, 5, 5, 5});
  EXPECT_DOUBLE_EQ(result.u, 12.5);
  EXPECT_DOUBLE_EQ(result.p_value, 1.0);
}

TEST(MannWhitney, RefusesEmptySamples) {
  EXPECT_THROW(mann_whitney_u({}, {1.0}), std::invalid_argument);
  EXPECT_THROW(mann_whitney_u({1.0}, {}), std::invalid_argument);
}

}  // namespace
}  // namespace h2d
