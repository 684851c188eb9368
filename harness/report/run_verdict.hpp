#pragma once

#include <vector>

#include "harness/report/primary_metric.hpp"
#include "harness/report/verdict.hpp"

namespace h2d {

// One case's runs on two sides: each run's own median over its repetitions.
struct CaseRuns {
  std::vector<double> base;
  std::vector<double> other;
  Better better = Better::higher;
};

// Judges every case of a comparison at once, runs as the unit (repetitions inside a run share its
// drift: their spread says nothing of where the next run lands):
//  - the change is the ratio of the sides' geometric means of run values, with a 95% t interval
//    from the case's own spread of log run values (pooled over both sides). Borrowing spread from
//    the other cases (a moderated t) was tried and dropped: real cases' noise differs a
//    hundredfold, and the noisy ones then hid a 2x change in the quiet ones;
//  - a case is "slower" when the change is shown to be more than threshold_pct slower, i.e. the
//    one-sided test of "no worse than -threshold" rejects at Holm-adjusted level alpha across
//    every case given (likewise "faster"); otherwise "same";
//  - with fewer than 2 runs on a side the direction is given, unconfirmed (reliable = false).
// So the chance that unchanged builds name any case as slower is at most alpha per comparison.
// Throws std::invalid_argument for a case with an empty side or a value that is not positive.
std::vector<Judgement> judge_runs(const std::vector<CaseRuns>& cases,
                                  const VerdictOptions& options);

}  // namespace h2d
