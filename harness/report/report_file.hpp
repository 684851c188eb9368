#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>

namespace h2d {

// Creates the parent folder if needed and proves `path` can be written, before a run spends
// minutes measuring. Throws UsageError naming the path and the system's reason.
// `flag` names the option the path came from in that message.
void check_writable(const std::string& path, const std::string& flag = "--out");

// Writes to a temporary file beside `path` and renames it into place once complete, so an
// interrupted run never leaves a truncated report. Throws std::runtime_error on failure.
void write_json_atomically(const std::string& path, const nlohmann::json& document);

// A report read back: Google Benchmark JSON, with the "h2dbench" context object unless it is a
// plain Google Benchmark report (any program's --benchmark_out), whose machine is unknown.
struct Report {
  std::string path;
  nlohmann::json document;
  bool plain_google_benchmark = false;
};

// The "schema" of the "h2dbench" object this build writes and reads.
constexpr long long kReportSchema = 1;

// The limits a report must stay within (README "Input limits"). Reports come from other rigs,
// versions and tools: beyond these a file is refused (exit 2) before it can exhaust memory, the
// stack or the patience of compare, summary and the plots (plots/report_reading.py has the same).
// Far beyond any real report: a full suite with repetitions is a few MiB, a few thousand entries,
// nested 6 deep, with names of ~150 characters.
constexpr std::size_t kMaxReportBytes = std::size_t{64} << 20;
constexpr std::size_t kMaxReportDepth = 64;
constexpr std::size_t kMaxReportStringChars = std::size_t{64} << 10;
constexpr std::size_t kMaxReportEntries = 250000;  // entries of "benchmarks"
constexpr std::size_t kMaxCaseNameChars = 1024;    // a benchmark's name and run_name

// Throws UsageError naming the file and the problem: missing, not a regular file (folder,
// device, pipe), empty, over a limit (with the place in the file and the limit), not JSON
// (truncated), not a Google Benchmark report, an "h2dbench" object of another schema.
Report read_report(const std::string& path);

}  // namespace h2d
