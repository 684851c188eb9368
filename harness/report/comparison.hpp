#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "harness/report/machine_info.hpp"
#include "harness/report/primary_metric.hpp"
#include "harness/report/report_file.hpp"
#include "harness/report/verdict.hpp"

namespace h2d {

struct CompareOptions {
  VerdictOptions verdict;
  std::string filter;            // std::regex searched in case names; empty keeps all
  bool allow_simulated = false;  // put simulated-GPU reports beside real ones (--allow-simulated)
};

// One report's side of a comparison.
struct ComparedReport {
  std::string label;  // "A", "B", ...: the first report is the baseline
  std::string path;
  MachineInfo machine;
  std::size_t repetitions = 0;  // most repetitions of any compared case
};

// One case on one machine.
struct ComparedCell {
  bool present = false;         // the report has the case
  std::string problem;          // why there is no value: failed, skipped, family skipped, no metric
  std::optional<double> value;  // median of the primary metric over repetitions
  std::size_t repetitions = 0;
  std::optional<double> cv_pct;          // the noisier of within-run cv_pct and across repetitions
  std::optional<Judgement> vs_baseline;  // not for the baseline itself
};

struct ComparedCase {
  std::string name;
  std::vector<ComparedCell> cells;  // one per report, in report order
  bool in_all() const;
};

struct ComparedFamily {
  std::string family;
  PrimaryMetric metric;
  std::vector<ComparedCase> cases;
  // Per report: geometric mean of speed-ups against the baseline over cases both have
  // (nullopt for the baseline or when none), and how many cases went into it.
  std::vector<std::optional<double>> geomean_speedup;
  std::vector<std::size_t> geomean_cases;
};

// A family only one report ran (GPU families beside a host-only report): nothing to compare, so
// it gets one line instead of a row per case.
struct OneSidedFamily {
  std::string family;
  std::size_t report = 0;  // the one that has it
  std::size_t cases = 0;
  std::vector<std::string> absent_because;  // per report ("" for the one that has it)
};

struct Comparison {
  std::vector<ComparedReport> reports;
  std::vector<ComparedFamily> families;  // families at least two reports have
  std::vector<OneSidedFamily> one_sided;
  VerdictOptions verdict;
  std::string filter;
};

// Matches cases by name across reports, picks each family's primary metric, judges every report
// against the first. Reports from different machines are the point: nothing is refused for
// differing, except simulated beside real reports (check_simulated_mix). Throws UsageError for a
// bad --filter or when no case matches it.
Comparison compare_reports(const std::vector<Report>& reports, const CompareOptions& options);

// Cases with a reliable "slower" verdict beyond the threshold (what --fail-on-regression counts).
std::vector<std::string> reliable_regressions(const Comparison& comparison);

// "A", "B", ..., "Z", "R27", ...
std::string report_label(std::size_t index);

}  // namespace h2d
