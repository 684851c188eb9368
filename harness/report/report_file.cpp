#include "harness/report/report_file.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>
#include <vector>

#include "h2d/version.hpp"

#include "harness/core/bounded_file.hpp"
#include "harness/core/usage_error.hpp"
#include "harness/report/bounded_json.hpp"

namespace h2d {
namespace {

std::string temporary_path_for(const std::string& path) {
  return fmt::format("{}.partial-{}", path, static_cast<long>(getpid()));
}

}  // namespace

void check_writable(const std::string& path, const std::string& flag) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  if (target.filename().empty()) {
    throw UsageError(
        fmt::format("{} '{}' names a folder; give a file such as {}report.json", flag, path, path));
  }
  std::error_code error;
  const fs::file_status existing = fs::status(target, error);  // follows symbolic links
  if (fs::is_directory(existing)) {
    throw UsageError(fmt::format("{} '{}' is a folder; give a file path", flag, path));
  }
  // The file is written beside the path and renamed over it: that would replace a device, a
  // pipe or a socket (as root, /dev/null itself) with a regular file.
  if (fs::exists(existing) && !fs::is_regular_file(existing)) {
    throw UsageError(fmt::format(
        "{} '{}' is not a regular file (a device, pipe or socket); give a file path", flag, path));
  }
  if (target.has_parent_path()) {
    fs::create_directories(target.parent_path(), error);
    if (error) {
      throw UsageError(fmt::format("{} '{}': cannot create folder '{}': {}", flag, path,
                                   target.parent_path().string(), error.message()));
    }
  }
  const std::string probe = temporary_path_for(path);
  std::FILE* file = std::fopen(probe.c_str(), "w");
  if (file == nullptr) {
    throw UsageError(
        fmt::format("{} '{}': cannot write there: {}", flag, path, std::strerror(errno)));
  }
  std::fclose(file);
  std::remove(probe.c_str());
}

void write_json_atomically(const std::string& path, const nlohmann::json& document) {
  const std::string temporary = temporary_path_for(path);
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << document.dump(2) << '\n';
    out.flush();
    if (!out) {
      std::remove(temporary.c_str());
      throw std::runtime_error(fmt::format("could not write report '{}'", temporary));
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    std::remove(temporary.c_str());
    throw std::runtime_error(fmt::format("could not move report into '{}': {}", path, reason));
  }
}

namespace {

nlohmann::json parse_report_text(const std::string& path, const std::string& text) {
  try {
    return parse_bounded_json(text, {kMaxReportDepth, kMaxReportStringChars});
  } catch (const nlohmann::json::parse_error& error) {
    throw UsageError(fmt::format("report '{}': not valid JSON, perhaps truncated (byte {}: {})",
                                 path, error.byte, error.what()));
  } catch (const JsonLimitError& error) {
    throw UsageError(fmt::format(
        "report '{}': byte {}: {}; a report stays within {} levels, "
        "strings of {} KiB and numbers a double can hold",
        path, error.byte(), error.what(), kMaxReportDepth, kMaxReportStringChars >> 10));
  }
}

// The entry count and the names every later step (filters, grouping, tables) works on.
void check_entries(const std::string& path, const nlohmann::json& benchmarks) {
  if (benchmarks.size() > kMaxReportEntries) {
    throw UsageError(
        fmt::format("report '{}': 'benchmarks' has {} entries; a report has at most {}", path,
                    benchmarks.size(), kMaxReportEntries));
  }
  for (std::size_t i = 0; i < benchmarks.size(); ++i) {
    const nlohmann::json& entry = benchmarks[i];
    for (const char* key : {"name", "run_name"}) {
      if (!entry.is_object()) {
        break;
      }
      const auto found = entry.find(key);
      if (found != entry.end() && found->is_string() &&
          found->get_ref<const std::string&>().size() > kMaxCaseNameChars) {
        throw UsageError(fmt::format(
            "report '{}': benchmarks[{}].{} is {} characters; a case name has at most {}", path, i,
            key, found->get_ref<const std::string&>().size(), kMaxCaseNameChars));
      }
    }
  }
}

}  // namespace

Report read_report(const std::string& path) {
  const std::string text = read_bounded_file(path, "report", kMaxReportBytes);
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
    throw UsageError(fmt::format("report '{}': the file is empty", path));
  }
  Report report{path, parse_report_text(path, text), false};
  const auto& doc = report.document;
  if (!doc.is_object() || !doc.contains("benchmarks") || !doc["benchmarks"].is_array() ||
      !doc.contains("context")) {
    throw UsageError(fmt::format(
        "report '{}': not a Google Benchmark JSON report (no 'context' and 'benchmarks')", path));
  }
  check_entries(path, doc["benchmarks"]);
  if (!doc.contains("h2dbench")) {
    report.plain_google_benchmark = true;  // compared by its times and counters, machine unknown
    return report;
  }
  if (!doc["h2dbench"].is_object()) {
    throw UsageError(fmt::format(
        "report '{}': its 'h2dbench' entry is not an object: not a report h2dbench wrote", path));
  }
  const nlohmann::json schema = doc["h2dbench"].value("schema", nlohmann::json());
  if (schema.is_null()) {
    throw UsageError(fmt::format(
        "report '{}': its 'h2dbench' object has no schema: not a report h2dbench wrote", path));
  }
  if (!schema.is_number_integer() || schema.get<long long>() != kReportSchema) {
    throw UsageError(
        fmt::format("report '{}' has h2dbench schema {}; this h2dbench ({}) reads "
                    "schema {}",
                    path, schema.dump(), kVersion, kReportSchema));
  }
  return report;
}

}  // namespace h2d
