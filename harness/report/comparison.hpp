#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "harness/report/machine_info.hpp"
#include "harness/report/peer_comparison.hpp"
#include "harness/report/primary_metric.hpp"
#include "harness/report/report_file.hpp"
#include "harness/report/verdict.hpp"

namespace h2d {

struct CompareOptions {
  VerdictOptions verdict;
  std::string filter;            // std::regex searched in case names; empty keeps all
  bool allow_simulated = false;  // put simulated-GPU reports beside real ones (--allow-simulated)
};

// One side of a comparison: a machine's report, or several runs of one machine (--vs).
struct ComparedReport {
  std::string label;  // "A", "B", ...: the first side is the baseline
  std::string path;   // the report, or its runs' reports joined by ", "
  std::size_t runs = 1;
  MachineInfo machine;          // of its first run
  std::string sample = "tile";  // the sample its batch families moved (--sample), of its first run
  std::string sample_text = "tile";  // its members: two "custom" samples may differ
  std::size_t repetitions = 0;       // most repetitions of any compared case in one run
};

// One case on one machine.
struct ComparedCell {
  bool present = false;         // the report has the case
  std::string problem;          // why there is no value: failed, skipped, family skipped, no metric
  std::optional<double> value;  // median over runs of each run's median over its repetitions
  std::vector<double> run_values;  // each run's median, the runs that have a value
  std::size_t repetitions = 0;     // most in one run
  // Across runs when there are several; else the noisier of the run's cv_pct and its repetitions'
  std::optional<double> cv_pct;
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
  std::vector<ComparedPeerFigure> peers;  // the peer tools' figures (run --peers), side by side
  VerdictOptions verdict;
  std::string filter;
};

// Matches cases by name across sides, picks each family's primary metric, judges every side
// against the first over runs (harness/report/run_verdict: all cases at once, so the gate's false
// alarms stay at alpha per comparison). Sides from different machines are the point: nothing is
// refused for differing, except simulated beside real reports (check_simulated_mix). Throws
// UsageError for an empty side, runs of one side from different machines, a bad --filter or when
// no case matches it.
Comparison compare_sides(const std::vector<std::vector<Report>>& sides,
                         const CompareOptions& options);

// Each report its own side of one run (`compare A.json B.json C.json`).
Comparison compare_reports(const std::vector<Report>& reports, const CompareOptions& options);

// Cases with a confirmed "slower" verdict beyond the threshold (what --fail-on-regression counts).
std::vector<std::string> reliable_regressions(const Comparison& comparison);

// "A", "B", ..., "Z", "R27", ...
std::string report_label(std::size_t index);

}  // namespace h2d
