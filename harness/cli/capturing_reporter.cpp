#include "harness/cli/capturing_reporter.hpp"

namespace h2d {

CapturingReporter::CapturingReporter(bool color, bool tabular)
    : console_(static_cast<benchmark::ConsoleReporter::OutputOptions>(
          (color ? benchmark::ConsoleReporter::OO_Color : 0) |
          (tabular ? benchmark::ConsoleReporter::OO_Tabular : 0))) {
  json_.SetOutputStream(&json_text_);
  json_.SetErrorStream(&json_text_);
}

bool CapturingReporter::ReportContext(const Context& context) {
  json_.ReportContext(context);
  return console_.ReportContext(context);
}

void CapturingReporter::ReportRuns(const std::vector<Run>& runs) {
  json_.ReportRuns(runs);
  // With repetitions, the table shows their aggregates (mean, median, stddev, cv); the report
  // keeps every repetition for compare's statistics.
  std::vector<Run> shown;
  for (const Run& run : runs) {
    if (run.repetitions <= 1 || run.run_type == Run::RT_Aggregate) {
      shown.push_back(run);
    }
  }
  if (!shown.empty()) {
    console_.ReportRuns(shown);
  }
}

void CapturingReporter::Finalize() {
  json_.Finalize();
  console_.Finalize();
}

}  // namespace h2d
