#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "harness/report/primary_metric.hpp"
#include "harness/report/report_cases.hpp"

namespace h2d {

// The short verdict printed at the end of every run (and by `h2dbench summary REPORT.json`).
// Generic over families, so families written later get one too: the cases of a family are
// grouped into workloads by every parameter except the strategy-like keys (kind, mode, policy,
// strategy, layout, dest, threads); within a workload the best case has the best primary
// metric, and is set against the naive one (pageable sync where the family has it).
struct FamilySummary {
  std::string family;
  PrimaryMetric metric;
  std::vector<std::string> findings;  // one line per workload
  std::vector<std::string> warnings;  // things that matter: unpinned pins, no overlap, noise
  std::string not_run;                // why no case of the family ran ("interrupted"), or empty
};

struct RunSummary {
  std::vector<FamilySummary> families;
  std::vector<std::string> notes;  // run-wide: failed, skipped cases and families
};

RunSummary summarize_report(const nlohmann::json& report);
std::string format_summary(const RunSummary& summary);

// kind, mode, policy, strategy, layout, dest, threads: keys that name how data is moved rather
// than what is moved.
bool is_strategy_key(const std::string& key);

// How naive a case's strategy is: one point per marker it carries (kind=pageable, mode=sync,
// policy=none, strategy=sync|naive|direct, threads=1, dest=fresh). The naive case of a workload
// is the one with the most (at least one).
int naive_score(const ParsedCaseName& name);

// Warnings over the cases of one family (summary_warnings.cpp).
std::vector<std::string> family_warnings(const std::vector<const ReportCase*>& cases,
                                         const PrimaryMetric& metric);

}  // namespace h2d
