#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace h2d {

// Creates the parent folder if needed and proves `path` can be written, before a run spends
// minutes measuring. Throws UsageError naming the path and the system's reason.
// `flag` names the option the path came from in that message.
void check_writable(const std::string& path, const std::string& flag = "--out");

// Writes to a temporary file beside `path` and renames it into place once complete, so an
// interrupted run never leaves a truncated report. Throws std::runtime_error on failure.
void write_json_atomically(const std::string& path, const nlohmann::json& document);

// A report read back: Google Benchmark JSON with the "h2dbench" context object.
struct Report {
  std::string path;
  nlohmann::json document;
};

// Throws UsageError naming the file and the problem: missing, empty, not JSON (truncated),
// not a Google Benchmark report, not an h2dbench report.
Report read_report(const std::string& path);

}  // namespace h2d
