#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "harness/cli/run_options.hpp"
#include "harness/core/device_info.hpp"
#include "harness/core/host_info.hpp"
#include "harness/core/latch_policy.hpp"
#include "harness/core/stopping_rule.hpp"
#include "harness/report/skipped_families.hpp"
#include "harness/suite/case_runner.hpp"

namespace h2d {

// Everything about a run and its machine that a later comparison needs.
struct RunContext {
  RunOptions options;
  std::vector<std::string> argv;
  std::vector<int> selected_devices;
  DeviceDiscovery discovery;
  HostInfo host;
  std::size_t pinned_limit_bytes = 0;
  std::string started_utc;  // ISO 8601
  // CUDA_DEVICE_MAX_CONNECTIONS in effect (kernels/latch.cu sets 32 unless the user set it).
  std::string device_max_connections;
  LatchDecision latches;       // whether cases were timed behind latches, and why not
  StoppingRule stopping_rule;  // when each case stopped measuring
  // The share of the CPU time the hypervisor took while the cases ran (harness/core/cpu_steal);
  // nullopt where the host does not say.
  std::optional<double> cpu_steal_pct;
  std::vector<SkippedFamily> skipped_families;
  CaseOutcomes outcomes;
};

// The report's h2dbench.host: what `run` and `peers` say of the machine (compare reads it).
nlohmann::json host_to_json(const HostInfo& host);

// The "h2dbench" object of a report. Pure: builds JSON from the struct.
nlohmann::json context_to_json(const RunContext& context);

// The current time as 2026-12-02T10:15:00Z, and as 20261202T101500Z for file names.
std::string utc_timestamp_iso();
std::string utc_timestamp_compact();

// results/<host>_<gpu-or-nogpu>_<timestamp>.json (simulated-results/... with the simulated GPU),
// with names made file-safe.
std::string default_report_path(const std::string& hostname, const std::vector<DeviceInfo>& gpus,
                                const std::string& compact_timestamp);

// Lowercase, with every run of characters other than [a-z0-9.] turned into one '-'.
std::string file_safe(const std::string& text);

}  // namespace h2d
