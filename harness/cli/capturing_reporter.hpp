#pragma once

#include <benchmark/benchmark.h>

#include <sstream>
#include <string>

namespace h2d {

// Shows Google Benchmark's console table (aggregates only, when there are repetitions) while
// keeping its JSON in memory, so the report can get our context added and be written atomically
// once the run is complete.
class CapturingReporter : public benchmark::BenchmarkReporter {
 public:
  // `color` and `tabular` (counters in columns) as --benchmark_color/--benchmark_counters_tabular.
  explicit CapturingReporter(bool color, bool tabular = true);

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
};

}  // namespace h2d
