#include "tests/quick_run.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace h2d_test {

QuickRun run_quick(const std::string& name, const std::string& arguments,
                   const std::string& environment) {
  const std::filesystem::path folder = scratch_folder(name);
  const std::filesystem::path out = folder / "report.json";
  QuickRun run;
  run.process = run_h2dbench(
      "run --preset quick " + arguments + " --out " + shell_quote(out.string()), environment);
  std::ifstream in(out);
  if (in.good()) {
    run.report = nlohmann::json::parse(in);
  }
  std::filesystem::remove_all(folder);
  return run;
}

std::vector<nlohmann::json> measured_entries(const nlohmann::json& report,
                                             const std::string& prefix) {
  std::vector<nlohmann::json> found;
  if (!report.is_object()) {
    return found;
  }
  for (const auto& entry : report.value("benchmarks", nlohmann::json::array())) {
    if (entry.value("name", std::string()).rfind(prefix, 0) == 0 &&
        !entry.value("error_occurred", false) && entry.value("run_type", "") == "iteration") {
      found.push_back(entry);
    }
  }
  return found;
}

nlohmann::json measured_entry(const nlohmann::json& report, const std::string& name) {
  for (const auto& entry : measured_entries(report, name)) {
    if (entry.value("name", std::string()) == name) {
      return entry;
    }
  }
  ADD_FAILURE() << "no measured entry named " << name;
  return nullptr;
}

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t found = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
    ++found;
  }
  return found;
}

}  // namespace h2d_test
