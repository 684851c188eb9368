#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/core/case_name.hpp"
#include "harness/core/family_axes.hpp"

namespace h2d {

// One case of a report, its repetitions gathered: Google Benchmark writes one "iteration" entry
// per repetition (plus mean/median/stddev/cv "aggregate" entries when there are several), all
// sharing a run_name. compare, summary and the plots all read cases this way.
struct ReportCase {
  std::string name;  // run_name, e.g. h2d/memory/dir=h2d/kind=pinned/mode=async/bytes=64MiB
  ParsedCaseName parsed;
  // Every numeric value of every repetition: counters (GB_per_s, cv_pct, bytes, ...), GB's
  // iterations, and real_time / cpu_time converted to microseconds. One entry per repetition.
  std::map<std::string, std::vector<double>> values;
  // When the report kept only aggregates (--benchmark_report_aggregates_only), values hold the
  // median aggregate and this holds the stddev aggregate; `repetitions` is still the true count.
  std::map<std::string, double> aggregate_stddev;
  std::size_t repetitions = 0;
  bool aggregates_only = false;
  std::optional<std::string> error;  // error_occurred: the case was skipped or failed
  // The role of each key, from the entry's `axes` (reports before them have none: readers ask
  // FamilyCatalog, which falls back to the family's declaration).
  std::map<std::string, AxisRole> roles;

  bool has(const std::string& metric) const;
  // Median over repetitions; throws std::out_of_range when the case has no such value.
  double median(const std::string& metric) const;
  // Same, or nullopt.
  std::optional<double> find_median(const std::string& metric) const;
  // The noise in percent: the larger of the within-run cv_pct counter (ignored when the run
  // had a single iteration) and the spread (cv) of `metric` across repetitions; nullopt when
  // neither is known.
  std::optional<double> noise_pct(const std::string& metric) const;
};

// The cases of a report in the order they first appear. Entries without a name are ignored;
// GB's bookkeeping numbers (indices, iterations, repetitions) are not values.
std::vector<ReportCase> collect_cases(const nlohmann::json& report);

// The distinct families, in the order they first appear.
std::vector<std::string> families_of(const std::vector<ReportCase>& cases);

}  // namespace h2d
