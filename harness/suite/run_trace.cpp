#include "harness/suite/run_trace.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "h2d/version.hpp"
#include "harness/report/report_file.hpp"
#include "harness/trace/chrome_trace.hpp"

namespace h2d {

RunTrace::RunTrace(const std::string& no_gpu_reason) {
  if (!no_gpu_reason.empty()) {
    note_ = fmt::format(
        "CUPTI needs a usable CUDA device ({}): the trace holds the host NVTX ranges only",
        no_gpu_reason);
  } else {
    try {
      cupti_ = std::make_unique<CuptiActivity>();
      note_ = "CUPTI records copies, memsets, kernels and the runtime calls that queued them";
    } catch (const std::runtime_error& error) {
      note_ = fmt::format("CUPTI could not start ({}): the trace holds the host NVTX ranges only",
                          error.what());
    }
  }
  // On CUPTI's clock when it records, so host ranges and GPU activity share one time line.
  host_.emplace(cupti_ ? &CuptiActivity::now_ns : &steady_clock_ns);
}

RunTrace::~RunTrace() = default;

RunTrace::Outcome RunTrace::finish(const std::string& path, const nlohmann::json& report,
                                   const std::map<std::uint32_t, std::string>& device_names) {
  const HostTimeline host = host_->stop();
  CuptiActivity::Result gpu;
  bool gpu_recorded = false;
  if (cupti_) {
    try {
      gpu = cupti_->stop();
      gpu_recorded = true;
    } catch (const std::runtime_error& error) {
      // The measurements are done and valid: keep the report and the host timeline.
      note_ = fmt::format("CUPTI failed at the end ({}): the trace holds the host NVTX ranges only",
                          error.what());
    }
  }
  Outcome outcome;
  if (gpu_recorded) {
    outcome.findings = check_trace(host, gpu.records, report_claims(report));
  }
  outcome.summary = {
      {"file", path},
      {"gpu_activity", gpu_recorded},
      {"note", note_},
      {"host_ranges", host.ranges.size()},
      {"gpu_records", gpu.records.size()},
      {"dropped_records", gpu.dropped},
      {"unclosed_ranges", host.unclosed},
  };
  const nlohmann::json other = {
      {"generator", fmt::format("h2dbench {} ({})", kVersion, kGitSha)},
      {"note", note_},
      {"dropped_records", gpu.dropped},
  };
  write_json_atomically(path, chrome_trace(host, gpu.records, device_names, other));
  return outcome;
}

}  // namespace h2d
