#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

#include "harness/core/median_interval.hpp"
#include "harness/core/preset.hpp"
#include "harness/core/time_bank.hpp"

namespace h2d {

// When a case has measured enough: once the distribution-free 95% confidence interval of its
// median (harness/core/median_interval) is within `target_rel_ci_pct` of the median, after at
// least `min_measurements`; a case that never gets there stops at its time cap and says how well
// it knows its median (it is noisy). Google Benchmark has no such rule (it repeats a fixed
// iteration count), so each case measures in a MeasurementLoop that asks this one.
// The nominal coverage of the interval a case stops on and reports. Stopping as soon as the
// interval is narrow picks intervals that happen to be narrow: at 95% nominal the stopped ones hold
// the median 91.7-92.6% of the time (2-3% normal and lognormal noise, StoppingCoverage in
// tests/stopping_coverage_test.cpp); at 97% 94.7-95.6% (96.5% 93.8-94.5%, 97.5% 96.0-96.5%).
inline constexpr double kStoppedIntervalConfidence = 0.97;

struct StoppingRule {
  double target_rel_ci_pct = 1.0;
  double interval_confidence = kStoppedIntervalConfidence;  // see kStoppedIntervalConfidence
  std::size_t min_measurements = 10;
  // Past the time cap a case still takes this many (fewer give no spread at all).
  std::size_t min_measurements_at_cap = 3;
  std::size_t max_measurements = 100000;
  double min_seconds = 0;    // measure at least this long (--benchmark_min_time)
  double max_seconds = 0.3;  // the time cap, from the loop's first measurement
  // Exactly this many measurements, no interval asked (profile mode: a short, even timeline).
  std::size_t exact_measurements = 0;
  // What steady cases left of their cap: a case at its cap whose interval projects to the target
  // within what the bank holds takes that time and goes on (StoppingCheck), up to
  // `most_cap_multiple` times its cap. None: every case stops at its own cap.
  std::shared_ptr<TimeBank> bank;
  double most_cap_multiple = 10;

  // The most one case may measure: max(max_seconds, min_seconds).
  double cap_seconds() const;
};

// Why a MeasurementLoop stopped, or that it goes on.
enum class StopReason {  // the numbers are the report's `stopped_by` counter
  measuring = 0,         // not yet
  median_known = 1,      // the interval reached the target
  time_cap = 2,          // the cap came first: the case is noisy
  count_cap = 3,         // max_measurements came first: the case is noisy
  exact_count = 4,       // exact_measurements taken
};

// The StopReason a report's `stopped_by` counter holds; nullopt for any other number (a report
// from elsewhere, or hand-edited).
std::optional<StopReason> stop_reason_from_counter(double value);

// True for the reasons that may leave the median less well known than the rule's target.
bool is_noisy(StopReason reason);

// The rule's decision after `samples` (each one measurement) and `elapsed_s` of measuring.
// Computing the interval sorts the samples; MeasurementLoop asks this only now and then.
StopReason decide(const StoppingRule& rule, const std::vector<double>& samples, double elapsed_s);

// How long a case that measured `elapsed_s` with `interval` would measure in all to bring the
// interval to `target_rel_ci_pct`: the half-width shrinks as 1/sqrt(n) and n grows with time, so
// elapsed * (half-width / target)^2. nullopt when that cannot be told: under 6 measurements no
// interval covers 95%.
std::optional<double> projected_seconds(double target_rel_ci_pct, const MedianInterval& interval,
                                        double elapsed_s);

// Each preset's rule for a run of `cases` cases; all aim at 1%. quick caps a case at 0.1 s and
// full at 2 s; default shares about 190 s of measuring among the run's cases, 0.3 to 0.5 s each.
StoppingRule preset_stopping_rule(Preset preset, std::size_t cases);

}  // namespace h2d
