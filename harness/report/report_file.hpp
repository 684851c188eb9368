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

// A report read back: Google Benchmark JSON with the "h2dbench" context object.
struct Report {
  std::string path;
  nlohmann::json document;
};

// The "schema" of the "h2dbench" object this build writes and reads.
constexpr long long kReportSchema = 1;
// Larger than any real report by far: a bigger file is not one (and /dev/zero never ends).
constexpr std::size_t kMaxReportBytes = std::size_t{1} << 30;

// Throws UsageError naming the file and the problem: missing, a folder or device, empty, too
// large, not JSON (truncated), not a Google Benchmark report, not an h2dbench report, another
// schema.
Report read_report(const std::string& path);

}  // namespace h2d
