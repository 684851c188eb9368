#pragma once

#include <cstddef>
#include <vector>

namespace h2d {

// A sample variance and its degrees of freedom.
struct SampleVariance {
  double variance = 0;
  double df = 0;
};

// How far one side's runs landed from the other's, on the log scale where a change is a ratio:
// each run is one measurement (its median over repetitions), because repetitions inside a run
// share its drift and do not see where the next run lands.
struct RunShift {
  double log_shift = 0;        // mean log(other runs) - mean log(base runs): log of the ratio
  SampleVariance pooled;       // pooled variance of the log run values, df = runs - 2
  double standard_factor = 0;  // sqrt(1/base runs + 1/other runs): se = sqrt(variance) * this
  std::size_t base_runs = 0;
  std::size_t other_runs = 0;
};

// Throws std::invalid_argument for an empty side or a value that is not positive.
RunShift run_shift(const std::vector<double>& base, const std::vector<double>& other);

// The shift tested against a band [log_low, log_high] (the threshold around no change), with
// `variance` the spread of log run values (run_shift's pooled).
struct ShiftTest {
  double p_below = 1;  // one-sided p of "shift >= log_low": small when the shift is below the band
  double p_above = 1;  // one-sided p of "shift <= log_high": small when it is above
  double low = 0;      // the two-sided `confidence` interval of the log shift
  double high = 0;
};

// Student's t with variance.df degrees of freedom. Throws std::invalid_argument when variance.df
// is not positive (one run on both sides: nothing says how far runs land).
ShiftTest test_shift(const RunShift& shift, const SampleVariance& variance, double log_low,
                     double log_high, double confidence);

}  // namespace h2d
