#include "harness/suite/context.hpp"

#include <fmt/format.h>

#include <cctype>
#include <chrono>
#include <ctime>
#include <map>

#include "h2d/version.hpp"
#include "harness/core/system_memory.hpp"
#include "harness/cuda/gpu_backend.hpp"
#include "harness/report/report_file.hpp"

namespace h2d {
namespace {

nlohmann::json problems_to_json(const std::vector<CaseProblem>& problems) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& problem : problems) {
    list.push_back(
        {{"name", problem.name}, {"reason", problem.reason}, {"kind", to_string(problem.kind)}});
  }
  return list;
}

std::string format_utc(const char* format) {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buffer[32];
  std::strftime(buffer, sizeof(buffer), format, &utc);
  return buffer;
}

}  // namespace

nlohmann::json host_to_json(const HostInfo& host) {
  const auto memlock = memlock_limit_bytes();
  return {
      {"hostname", host.hostname},
      {"cpu_model", host.cpu_model},
      {"cores", host.cores},
      {"memory_bytes", host.memory_bytes},
      {"memory_available_bytes", host.memory_available_bytes},
      {"numa_nodes", host.numa_nodes},
      {"kernel", host.kernel},
      {"memlock_limit_bytes", memlock ? nlohmann::json(*memlock) : nlohmann::json(nullptr)},
  };
}

nlohmann::json context_to_json(const RunContext& context) {
  nlohmann::json gpus = nlohmann::json::array();
  for (const DeviceInfo& gpu : context.discovery.devices) {
    gpus.push_back({
        {"ordinal", gpu.ordinal},
        {"name", gpu.name},
        {"uuid", gpu.uuid},
        {"pci_bus_id", gpu.pci_bus_id},
        {"compute_capability", fmt::format("{}.{}", gpu.cc_major, gpu.cc_minor)},
        {"copy_engines", gpu.copy_engines},
        {"memory_bytes", gpu.total_memory},
        {"multiprocessors", gpu.multiprocessors},
    });
  }
  nlohmann::json skipped_families = nlohmann::json::array();
  for (const auto& skipped : context.skipped_families) {
    skipped_families.push_back({{"family", skipped.family}, {"reason", skipped.reason}});
  }
  return {
      {"schema", kReportSchema},
      {"version", kVersion},
      {"git_sha", kGitSha},
      {"backend", std::string(kGpuBackend)},  // "simulated": proves logic, never speed
      {"cuda",
       {
           {"runtime_version", format_cuda_version(context.discovery.runtime_version)},
           {"driver_version", format_cuda_version(context.discovery.driver_version)},
           {"usable", context.discovery.usable()},
           {"unavailable_reason", context.discovery.unavailable_reason},
           {"device_max_connections", context.device_max_connections.empty()
                                          ? nlohmann::json(nullptr)
                                          : nlohmann::json(context.device_max_connections)},
       }},
      {"gpus", gpus},
      {"host", host_to_json(context.host)},
      {"run",
       {
           {"preset", std::string(to_string(context.options.preset))},
           {"filter", context.options.filter},
           {"devices", context.selected_devices},
           {"benchmark_flags", context.options.benchmark_flags},
           {"argv", context.argv},
           {"pinned_limit_bytes", context.pinned_limit_bytes},
           {"started_utc", context.started_utc},
           // A shared virtual machine's noise: CPU time the hypervisor gave other guests.
           {"cpu_steal_pct", context.cpu_steal_pct ? nlohmann::json(*context.cpu_steal_pct)
                                                   : nlohmann::json(nullptr)},
           {"latches", {{"enabled", context.latches.enabled}, {"reason", context.latches.reason}}},
           {"stopping_rule",
            {
                {"target_rel_ci_pct", context.stopping_rule.target_rel_ci_pct},
                {"min_measurements", context.stopping_rule.min_measurements},
                {"min_seconds", context.stopping_rule.min_seconds},
                {"max_seconds", context.stopping_rule.cap_seconds()},
                {"exact_measurements", context.stopping_rule.exact_measurements},
                // A noisy case may take what steady cases left, up to this many caps.
                {"most_seconds_with_lent_time",
                 context.stopping_rule.bank
                     ? context.stopping_rule.most_cap_multiple * context.stopping_rule.cap_seconds()
                     : context.stopping_rule.cap_seconds()},
                // Measuring past the bound printed at the start: measurements that outlasted
                // their case's cap when the time the others left could not pay for them.
                {"overrun_s",
                 context.stopping_rule.bank ? context.stopping_rule.bank->overrun_s() : 0.0},
                {"overruns", context.stopping_rule.bank ? context.stopping_rule.bank->overruns()
                                                        : std::size_t{0}},
            }},
       }},
      {"skipped_families", skipped_families},
      {"skipped_cases", problems_to_json(context.outcomes.skipped)},
      {"failed_cases", problems_to_json(context.outcomes.failed)},
  };
}

std::string utc_timestamp_iso() {
  return format_utc("%Y-%m-%dT%H:%M:%SZ");
}
std::string utc_timestamp_compact() {
  return format_utc("%Y%m%dT%H%M%SZ");
}

std::string file_safe(const std::string& text) {
  std::string safe;
  for (char c : text) {
    const char lower = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if ((lower >= 'a' && lower <= 'z') || (lower >= '0' && lower <= '9') || lower == '.') {
      safe += lower;
    } else if (!safe.empty() && safe.back() != '-') {
      safe += '-';
    }
  }
  while (!safe.empty() && safe.back() == '-') {
    safe.pop_back();
  }
  return safe.empty() ? "unknown" : safe;
}

std::string default_report_path(const std::string& hostname, const std::vector<DeviceInfo>& gpus,
                                const std::string& compact_timestamp) {
  std::string gpu = "nogpu";
  if (!gpus.empty()) {
    gpu = file_safe(gpus.front().name);
    if (gpus.size() > 1) {
      gpu = fmt::format("{}x-{}", gpus.size(), gpu);
    }
  }
  return fmt::format("{}/{}_{}_{}.json", default_report_folder(), file_safe(hostname), gpu,
                     compact_timestamp);
}

}  // namespace h2d
