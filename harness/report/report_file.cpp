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

#include "harness/core/usage_error.hpp"

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

Report read_report(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code status_error;
  const fs::file_status status = fs::status(path, status_error);
  if (fs::is_directory(status)) {
    throw UsageError(fmt::format("report '{}' is a folder; give a report file", path));
  }
  // A pipe is fine (`summary <(ssh rig cat r.json)`); a device would be read forever.
  if (fs::is_character_file(status) || fs::is_block_file(status) || fs::is_socket(status)) {
    throw UsageError(fmt::format("report '{}' is a device or socket, not a report file", path));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw UsageError(fmt::format("report '{}': cannot open: {}", path, std::strerror(errno)));
  }
  std::string text;
  std::vector<char> chunk(std::size_t{1} << 20);
  while (in.read(chunk.data(), static_cast<std::streamsize>(chunk.size())) || in.gcount() > 0) {
    text.append(chunk.data(), static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxReportBytes) {
      throw UsageError(fmt::format("report '{}' is larger than {} MiB: not an h2dbench report",
                                   path, kMaxReportBytes >> 20));
    }
  }
  if (in.bad()) {
    throw UsageError(fmt::format("report '{}': cannot read: {}", path, std::strerror(errno)));
  }
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
    throw UsageError(fmt::format("report '{}': the file is empty", path));
  }
  Report report{path, {}};
  try {
    report.document = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& error) {
    throw UsageError(fmt::format("report '{}': not valid JSON, perhaps truncated (byte {}: {})",
                                 path, error.byte, error.what()));
  }
  const auto& doc = report.document;
  if (!doc.is_object() || !doc.contains("benchmarks") || !doc["benchmarks"].is_array() ||
      !doc.contains("context")) {
    throw UsageError(fmt::format(
        "report '{}': not a Google Benchmark JSON report (no 'context' and 'benchmarks')", path));
  }
  if (!doc.contains("h2dbench") || !doc["h2dbench"].is_object()) {
    throw UsageError(fmt::format(
        "report '{}': a Google Benchmark report, but not from h2dbench (no 'h2dbench' context)",
        path));
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
