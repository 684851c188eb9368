#pragma once

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstddef>
#include <set>
#include <sstream>
#include <string>

#include "harness/cli/run_progress.hpp"

namespace h2d {

// Shows Google Benchmark's console table (aggregates only, when there are repetitions) while
// keeping its JSON in memory, so the report can get our context added and be written atomically
// once the run is complete. Progress ("N of M cases done") goes to stderr between the rows.
class CapturingReporter : public benchmark::BenchmarkReporter {
 public:
  // `color` and `tabular` (counters in columns) as --benchmark_color/--benchmark_counters_tabular;
  // `total_cases`: how many cases the run registered, for the progress lines.
  CapturingReporter(bool color, bool tabular, std::size_t total_cases);

  bool ReportContext(const Context& context) override;
  void ReportRuns(const std::vector<Run>& runs) override;
  void Finalize() override;

  // Google Benchmark's JSON text for everything reported so far. It may hold bare NaN/Infinity:
  // read it with parse_benchmark_json (harness/report/benchmark_json.hpp).
  std::string json() const { return json_text_.str(); }

 private:
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

}  // namespace h2d
