#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "harness/report/family_catalog.hpp"
#include "harness/report/primary_metric.hpp"
#include "harness/report/report_cases.hpp"

namespace h2d {

// The short verdict printed at the end of every run (and by `h2dbench summary REPORT.json`).
// It reads what each case means from its family's declaration (harness/core/family_axes.hpp:
// the entry's own `axes`, else the report's or this h2dbench's declaration): cases are grouped
// into workloads by their workload axes; within a workload the strategies are ranked by the
// declared metric, those not distinguishable from the best (within_noise.hpp) are one tie, and
// the best is set against the declared naive baseline (else the slowest).
struct FamilySummary {
  std::string family;
  PrimaryMetric metric;
  std::vector<std::string> findings;  // one line per workload
  std::vector<std::string> warnings;  // things that matter: unpinned pins, no overlap, noise
  std::string not_run;  // why no case of the family was measured (skip reasons, "interrupted")
};

struct RunSummary {
  std::vector<FamilySummary> families;
  std::vector<std::string> notes;      // run-wide: failed, skipped cases and families
  std::vector<std::string> peer_gaps;  // our figure beside a peer tool's (peer_gaps.hpp)
};

RunSummary summarize_report(const nlohmann::json& report);
std::string format_summary(const RunSummary& summary);

// Warnings over the cases of one family (summary_warnings.cpp).
std::vector<std::string> family_warnings(const std::vector<const ReportCase*>& cases,
                                         const PrimaryMetric& metric, const FamilyCatalog& catalog);

}  // namespace h2d
