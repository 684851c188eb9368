#include "harness/cli/capturing_reporter.hpp"

#include <iostream>

#include "harness/core/median_interval.hpp"
#include "harness/core/stop_signal.hpp"
#include "harness/core/stopping_rule.hpp"
#include "harness/core/text_wrap.hpp"

namespace h2d {

CapturingReporter::CapturingReporter(ConsoleMode mode, bool color, bool tabular,
                                     std::size_t total_cases, CaseRowSource rows)
    : mode_(mode),
      rows_(std::move(rows)),
      console_(static_cast<benchmark::ConsoleReporter::OutputOptions>(
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
      // The report's name, in the table and its "ERROR OCCURRED" lines too: without Google
      // Benchmark's /iterations:1/manual_time (the report drops them as well).
      benchmark::BenchmarkName& name = shown.back().run_name;
      name.min_time.clear();
      name.iterations.clear();
      name.repetitions.clear();
      name.time_type.clear();
    }
  }
  if (mode_ == ConsoleMode::full && !shown.empty()) {
    console_.ReportRuns(shown);
  }
  if (mode_ == ConsoleMode::compact) {
    for (const Run& run : shown) {
      // With repetitions the median stands for the case; its other aggregates stay in the report.
      if (run.run_type != Run::RT_Aggregate || run.aggregate_name == "median") {
        show_compact(run);
      }
    }
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

void CapturingReporter::show_compact(const Run& run) const {
  const std::string& name = run.run_name.function_name;
  const auto declared = rows_.metrics.find(name);
  const PrimaryMetric metric = declared != rows_.metrics.end()
                                   ? declared->second
                                   : primary_metric(nullptr, [&](const std::string& counter) {
                                       return run.counters.count(counter) > 0;
                                     });
  const bool skipped = run.error_occurred && rows_.was_skipped && rows_.was_skipped(name);
  for (const std::string& line : format_case_row(case_row_of(run, metric, skipped))) {
    std::cout << line << "\n";
  }
  std::cout << std::flush;
}

CaseRow case_row_of(const benchmark::BenchmarkReporter::Run& run, const PrimaryMetric& metric,
                    bool skipped) {
  CaseRow row;
  row.name = run.run_name.function_name;
  if (run.error_occurred) {
    row.outcome = skipped ? CaseRow::Outcome::skipped : CaseRow::Outcome::failed;
    row.problem = run.error_message;
    return row;
  }
  row.unit = metric.unit;
  if (const auto found = run.counters.find(metric.name); found != run.counters.end()) {
    row.value = found->second.value;
  } else if (metric.name == "real_time") {
    row.value = run.GetAdjustedRealTime();  // in the unit the cases register: microseconds
  }
  // The interval of the figure the row shows: its own where the case wrote one.
  for (const std::string& interval :
       {figure_interval_counter(metric.name), std::string("rel_ci_pct")}) {
    if (const auto found = run.counters.find(interval); found != run.counters.end()) {
      row.rel_ci_pct = found->second.value;
      break;
    }
  }
  std::string note;
  if (const auto found = run.counters.find("stopped_by"); found != run.counters.end()) {
    const auto reason = stop_reason_from_counter(found->second.value);
    if (reason == StopReason::time_cap) {
      note = "noisy: time cap";
    } else if (reason == StopReason::count_cap) {
      note = "noisy: count cap";
    }
  }
  if (const auto found = run.counters.find("drifting");
      found != run.counters.end() && found->second.value > 0) {
    note += (note.empty() ? "" : "; ") + std::string("drifting");
  }
  if (!run.report_label.empty()) {
    note += (note.empty() ? "" : "; ") + run.report_label;
  }
  row.note = note;
  return row;
}

std::string explain_benchmark_context(const std::string& header) {
  static const std::string debug_warning = "Library was built as DEBUG";
  std::string out;
  std::istringstream lines(header);
  for (std::string line; std::getline(lines, line);) {
    out += line + "\n";
    if (line.find(debug_warning) != std::string::npos) {
      out += wrap_line(
          "h2dbench: that warning does not apply here: the library's debug checks run outside "
          "the measured time; every h2dbench case times itself (GPU events or the host's steady "
          "clock, reported as manual time)");
    }
  }
  return out;
}

}  // namespace h2d
