#pragma once

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "harness/cli/case_row.hpp"
#include "harness/cli/run_options.hpp"
#include "harness/cli/run_progress.hpp"
#include "harness/report/primary_metric.hpp"

namespace h2d {

// What the compact rows need to know beyond Google Benchmark's run: each case's primary metric
// (declared by its family) and whether a case that ended early was skipped or failed.
struct CaseRowSource {
  std::map<std::string, PrimaryMetric> metrics;  // by case name; absent: GB_per_s, then real_time
  std::function<bool(const std::string& name)> was_skipped;
};

// Shows each case on the console as it completes (a compact row, or Google Benchmark's table
// with aggregates only when there are repetitions) while keeping its JSON in memory, so the report
// can get our context added and be written atomically once the run is complete. Progress ("N of M
// cases done") goes to stderr between the rows.
class CapturingReporter : public benchmark::BenchmarkReporter {
 public:
  // `color` and `tabular` (counters in columns) as --benchmark_color/--benchmark_counters_tabular,
  // for the full table; `total_cases`: how many cases the run registered, for the progress lines.
  CapturingReporter(ConsoleMode mode, bool color, bool tabular, std::size_t total_cases,
                    CaseRowSource rows = {});

  bool ReportContext(const Context& context) override;
  void ReportRuns(const std::vector<Run>& runs) override;
  void Finalize() override;

  // Google Benchmark's JSON text for everything reported so far. It may hold bare NaN/Infinity:
  // read it with parse_benchmark_json (harness/report/benchmark_json.hpp).
  std::string json() const { return json_text_.str(); }

 private:
  void show_compact(const Run& run) const;

  ConsoleMode mode_;
  CaseRowSource rows_;
  benchmark::ConsoleReporter console_;
  benchmark::JSONReporter json_;
  std::ostringstream json_text_;
  RunProgress progress_;
  std::set<std::string> reported_;  // cases seen: with repetitions GB reports a case twice
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};

// Google Benchmark's context header as it wrote it, with our word after the warnings it prints
// that do not apply to h2dbench: Debian's libbenchmark is built without NDEBUG and says "Library
// was built as DEBUG. Timings may be affected." on every run, but every h2dbench case times itself.
std::string explain_benchmark_context(const std::string& header);

// The compact row of one of Google Benchmark's runs of a case, its figure read as `metric`.
CaseRow case_row_of(const benchmark::BenchmarkReporter::Run& run, const PrimaryMetric& metric,
                    bool skipped);

}  // namespace h2d
