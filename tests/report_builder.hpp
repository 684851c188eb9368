#pragma once

// Builds h2dbench reports in memory for tests of compare, summary and plots' inputs: machines
// that differ, cases that are missing, repetitions with chosen noise. Test data, not results.

#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "harness/report/report_file.hpp"

namespace h2d::testing {

class ReportBuilder {
 public:
  // A machine: hostname, and a GPU name (empty: no GPU, with the driver's reason).
  explicit ReportBuilder(const std::string& hostname, const std::string& gpu = "") {
    doc_["context"] = {{"host_name", hostname}, {"num_cpus", 8}};
    doc_["benchmarks"] = nlohmann::json::array();
    nlohmann::json gpus = nlohmann::json::array();
    if (!gpu.empty()) {
      gpus.push_back({{"ordinal", 0},
                      {"name", gpu},
                      {"compute_capability", "9.0"},
                      {"pci_bus_id", "0000:17:00.0"}});
    }
    doc_["h2dbench"] = {
        {"schema", 1},
        {"version", "0.1.0"},
        {"git_sha", "abc123"},
        {"cuda",
         {{"runtime_version", "12.4"},
          {"driver_version", gpu.empty() ? "none" : "12.4"},
          {"usable", !gpu.empty()},
          {"unavailable_reason", gpu.empty() ? "no NVIDIA driver is installed" : ""}}},
        {"gpus", gpus},
        {"host",
         {{"hostname", hostname},
          {"cpu_model", "Test CPU " + hostname},
          {"cores", 8},
          {"memory_bytes", 68719476736ull},
          {"numa_nodes", 2}}},
        {"run", {{"preset", "default"}, {"started_utc", "2026-01-01T00:00:00Z"}}},
        {"skipped_families", nlohmann::json::array()},
        {"skipped_cases", nlohmann::json::array()},
        {"failed_cases", nlohmann::json::array()},
    };
  }

  // One iteration entry per value of `metric`; `counters` are added to each.
  ReportBuilder& add(const std::string& name, const std::string& metric,
                     const std::vector<double>& values,
                     const std::map<std::string, double>& counters = {}) {
    for (std::size_t i = 0; i < values.size(); ++i) {
      nlohmann::json entry{{"name", name},
                           {"run_name", name},
                           {"run_type", "iteration"},
                           {"repetitions", values.size()},
                           {"repetition_index", i},
                           {"iterations", 10},
                           {"real_time", 100.0},
                           {"cpu_time", 50.0},
                           {"time_unit", "us"}};
      for (const auto& [key, value] : counters) {
        entry[key] = value;
      }
      entry[metric] = values[i];
      doc_["benchmarks"].push_back(entry);
    }
    return *this;
  }

  ReportBuilder& add_error(const std::string& name, const std::string& message) {
    doc_["benchmarks"].push_back({{"name", name},
                                  {"run_name", name},
                                  {"run_type", "iteration"},
                                  {"error_occurred", true},
                                  {"error_message", message}});
    return *this;
  }

  ReportBuilder& skip_family(const std::string& family, const std::string& reason) {
    doc_["h2dbench"]["skipped_families"].push_back({{"family", family}, {"reason", reason}});
    return *this;
  }

  nlohmann::json& json() { return doc_; }
  Report report(const std::string& path = "built.json") const { return {path, doc_}; }

  void write(const std::string& path) const {
    std::ofstream out(path);
    out << doc_.dump(2);
  }

 private:
  nlohmann::json doc_;
};

}  // namespace h2d::testing
