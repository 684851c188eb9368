#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "harness/cuda/cupti_activity.hpp"
#include "harness/trace/host_trace.hpp"
#include "harness/trace/trace_findings.hpp"

namespace h2d {

// `h2dbench run --trace FILE`: records the run's own timeline, for machines without Nsight
// Systems. Host NVTX ranges are always recorded; GPU activity (copies with their memory kinds,
// kernels, the calls that queued them) through CUPTI when a GPU is usable. At the end it writes
// Chrome trace JSON and checks what the cases claim against what the driver did.
class RunTrace {
 public:
  // `no_gpu_reason` empty: a GPU is usable and CUPTI records it; otherwise why not.
  explicit RunTrace(const std::string& no_gpu_reason);
  RunTrace(const RunTrace&) = delete;
  RunTrace& operator=(const RunTrace&) = delete;
  ~RunTrace();

  bool records_gpu() const { return cupti_ != nullptr; }
  // One line for the console: what is recorded, or why GPU activity is not.
  const std::string& note() const { return note_; }

  struct Outcome {
    std::vector<TraceFinding> findings;
    nlohmann::json summary;  // report["h2dbench"]["trace"]
  };
  // Stops recording, writes the trace to `path` and checks the claims of `report`'s cases.
  Outcome finish(const std::string& path, const nlohmann::json& report,
                 const std::map<std::uint32_t, std::string>& device_names);

 private:
  std::unique_ptr<CuptiActivity> cupti_;
  std::optional<HostTraceSession> host_;
  std::string note_;
};

}  // namespace h2d
