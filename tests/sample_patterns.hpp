#pragma once

// Samples of known spread for the stopping rule's tests.

#include <cstddef>
#include <vector>

namespace h2d_test {

// 1.000, 1.001, ..., 1.004 repeating: a steady case (pinned copies: cv 0.08% on the H200), its
// median known within 1% at the floor of 10.
inline std::vector<double> steady_samples(std::size_t n) {
  std::vector<double> samples;
  for (std::size_t i = 0; i < n; ++i) {
    samples.push_back(1.0 + 0.001 * static_cast<double>(i % 5));
  }
  return samples;
}

// 1 and 2 alternating: the median's interval spans both, far beyond 1%, however many there are.
inline std::vector<double> alternating_samples(std::size_t n) {
  std::vector<double> samples;
  for (std::size_t i = 0; i < n; ++i) {
    samples.push_back(i % 2 == 0 ? 1.0 : 2.0);
  }
  return samples;
}

}  // namespace h2d_test
