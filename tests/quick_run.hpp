#pragma once

// `h2dbench run --preset quick ...` as a user runs it, and the report it wrote: shared by the GPU
// tests that check whole runs (startup checks, the sim's measurement math).

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <vector>

#include "tests/h2dbench_process.hpp"

namespace h2d_test {

struct QuickRun {
  ProcessResult process;
  nlohmann::json report;  // null when the run wrote none
};

// `h2dbench run --preset quick <arguments> --out <scratch>` with `environment` ("NAME=value ...");
// `name` names the scratch folder, removed afterwards.
QuickRun run_quick(const std::string& name, const std::string& arguments,
                   const std::string& environment = "");

// The measured entries (no aggregates, no errors) whose name starts with `prefix`.
std::vector<nlohmann::json> measured_entries(const nlohmann::json& report,
                                             const std::string& prefix);

// The one measured entry named exactly `name`; fails the test (and returns null) when absent.
nlohmann::json measured_entry(const nlohmann::json& report, const std::string& name);

// How often `what` occurs in `text`.
std::size_t occurrences(const std::string& text, const std::string& what);

}  // namespace h2d_test
