#include "harness/report/simulated_report.hpp"

#include <fmt/format.h>

#include <string>

#include "harness/core/usage_error.hpp"

namespace h2d {
namespace {

// The name every simulated device carries (sim/runtime), so older or hand-made reports without a
// "backend" field are still recognised.
constexpr const char* kSimulatedDeviceMark = "(h2dbench sim)";

}  // namespace

bool is_simulated_report(const nlohmann::json& report) {
  if (!report.is_object() || !report.contains("h2dbench") || !report["h2dbench"].is_object()) {
    return false;
  }
  const nlohmann::json& context = report["h2dbench"];
  if (context.contains("backend") && context["backend"] == "simulated") {
    return true;
  }
  if (!context.contains("gpus") || !context["gpus"].is_array()) {
    return false;
  }
  for (const nlohmann::json& gpu : context["gpus"]) {
    if (gpu.is_object() && gpu.contains("name") && gpu["name"].is_string() &&
        gpu["name"].get_ref<const std::string&>().find(kSimulatedDeviceMark) != std::string::npos) {
      return true;
    }
  }
  return false;
}

void check_simulated_mix(const std::vector<Report>& reports, bool allow_simulated) {
  std::string simulated;
  std::size_t count = 0;
  for (const Report& report : reports) {
    if (is_simulated_report(report.document)) {
      simulated += (simulated.empty() ? "" : ", ") + report.path;
      ++count;
    }
  }
  if (allow_simulated || count == 0 || count == reports.size()) {
    return;
  }
  throw UsageError(fmt::format(
      "{} {} from the simulated GPU and the others from real machines; simulated numbers prove "
      "logic, never speed (pass --allow-simulated to compare them anyway)",
      simulated, count == 1 ? "is" : "are"));
}

}  // namespace h2d
