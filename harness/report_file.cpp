#include "harness/report_file.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include "harness/usage_error.hpp"

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
  if (fs::is_directory(target, error)) {
    throw UsageError(fmt::format("{} '{}' is a folder; give a file path", flag, path));
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
  std::ifstream in(path);
  if (!in) {
    throw UsageError(fmt::format("report '{}': cannot open: {}", path, std::strerror(errno)));
  }
  std::stringstream text;
  text << in.rdbuf();
  if (text.str().find_first_not_of(" \t\r\n") == std::string::npos) {
    throw UsageError(fmt::format("report '{}': the file is empty", path));
  }
  Report report{path, {}};
  try {
    report.document = nlohmann::json::parse(text.str());
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
  return report;
}

}  // namespace h2d
