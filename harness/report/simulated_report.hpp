#pragma once

#include <nlohmann/json.hpp>

#include <vector>

#include "harness/report/report_file.hpp"

namespace h2d {

// A report written by a binary linked against the simulated GPU (sim/): its context says
// "backend": "simulated", or one of its GPUs is named as the simulator names them. Such numbers
// prove logic, never speed, so they must never pass for a real machine's.
bool is_simulated_report(const nlohmann::json& report);

// compare refuses to put simulated and real reports side by side unless asked: throws UsageError
// naming the simulated files and --allow-simulated. All simulated, or all real, is fine.
void check_simulated_mix(const std::vector<Report>& reports, bool allow_simulated);

}  // namespace h2d
