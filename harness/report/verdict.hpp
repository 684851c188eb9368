#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "harness/report/primary_metric.hpp"

namespace h2d {

// The repetitions of one case's primary metric on one machine.
struct Repetitions {
  std::vector<double> values;  // one per repetition (or the median alone: see stddev)
  std::size_t count = 0;       // true number of repetitions
  // Set when the report kept only aggregates: values holds the median, this the stddev.
  std::optional<double> stddev;
  // With one repetition: half the within-run 95% interval of its figure, where the caller judges
  // cases of one run (the summary's ties; harness/report/case_noise says why compare does not).
  std::optional<double> half_interval;
};

enum class Verdict { faster, slower, same };

struct VerdictOptions {
  double threshold_pct = 5;  // changes below this are "same"; compare's gate looks beyond it
  // judge: the U test's level. judge_runs: the family-wise level, the chance that a comparison of
  // unchanged builds names any case at all (harness/report/run_verdict).
  double alpha = 0.05;
};

struct Judgement {
  Verdict verdict = Verdict::same;
  // false: noise unknown (judge: one measurement a side; judge_runs: fewer than 2 runs a side),
  // so the verdict is only the direction, unconfirmed
  bool reliable = false;
  double ratio = 1;               // other / base of the metric itself
  double speedup = 1;             // >1 means `other` is faster (ratio, or 1/ratio for times)
  double change_pct = 0;          // |other - base| / base, in percent
  std::optional<double> p_value;  // when a test decided (judge_runs: Holm-adjusted)
  // judge_runs: the runs on each side and the 95% interval of the speed-up, as % change
  std::size_t base_runs = 0;
  std::size_t other_runs = 0;
  std::optional<double> speedup_low_pct;
  std::optional<double> speedup_high_pct;
  std::string reason;  // one phrase: "p=0.008", "ranges overlap", ...
};

// Judges `other` against `base` within one run (the summary's ties between strategies), noise
// included. Not for two runs: repetitions share their run's drift (compare: run_verdict).
//  - a change below threshold_pct is "same";
//  - with >= 5 repetitions per side, a two-sided Mann-Whitney U test decides (p < alpha);
//  - with 2..4, the ranges of the repetitions (median +- stddev for aggregates) must not overlap;
//  - with one repetition a side, each with its within-run interval (half_interval), the two
//    intervals must not overlap (for two 95% intervals of equal width a test at about 0.6%, not
//    5%: a tie is called more often than a 5% test would);
//  - otherwise (a side whose noise is unknown) the direction is given but marked unreliable.
// Throws std::invalid_argument for empty samples or a zero/negative base.
Judgement judge(const Repetitions& base, const Repetitions& other, Better better,
                const VerdictOptions& options);

const char* to_string(Verdict verdict);

}  // namespace h2d
