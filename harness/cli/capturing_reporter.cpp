#include "harness/cli/capturing_reporter.hpp"

#include <iostream>

#include "harness/core/stop_signal.hpp"

namespace h2d {

CapturingReporter::CapturingReporter(bool color, bool tabular, std::size_t total_cases)
    : console_(static_cast<benchmark::ConsoleReporter::OutputOptions>(
          (color ? benchmark::ConsoleReporter::OO_Color : 0) |
          (tabular ? benchmark::ConsoleReporter::OO_Tabular : 0))),
      progress_(total_cases) {
  json_.SetOutputStream(&json_text_);
  json_.SetErrorStream(&json_text_);
}

bool CapturingReporter::ReportContext(const Context& context) {
  json_.ReportContext(context);
  // The console reporter writes its header (machine, caches, warnings) to its error stream; take
  // it, so our note can follow the library's warning.
  std::ostringstream header;
  console_.SetErrorStream(&header);
  const bool go_on = console_.ReportContext(context);
  console_.SetErrorStream(&std::cerr);
  std::cerr << explain_benchmark_context(header.str()) << std::flush;
  started_ = std::chrono::steady_clock::now();
  return go_on;
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
  // After Ctrl-C the cases left are skipped in a flash: counting them as done would print
  // "648 of 714 cases done" for a run that stopped at 144; the run's last line counts them.
  if (!runs.empty() && reported_.insert(runs.front().run_name.str()).second && !stop_requested()) {
    const double elapsed_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    if (const auto line = progress_.case_done(elapsed_s)) {
      std::cout << std::flush;  // the table's rows first, then our line between them
      std::cerr << *line << std::flush;
    }
  }
}

void CapturingReporter::Finalize() {
  json_.Finalize();
  console_.Finalize();
}

std::string explain_benchmark_context(const std::string& header) {
  static const std::string debug_warning = "Library was built as DEBUG";
  std::string out;
  std::istringstream lines(header);
  for (std::string line; std::getline(lines, line);) {
    out += line + "\n";
    if (line.find(debug_warning) != std::string::npos) {
      out +=
          "h2dbench: that warning does not apply here: the library's debug checks run outside "
          "the measured time; every h2dbench case times itself (GPU events or the host's steady "
          "clock, reported as manual time)\n";
    }
  }
  return out;
}

}  // namespace h2d
