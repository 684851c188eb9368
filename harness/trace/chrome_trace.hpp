#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "harness/trace/activity_record.hpp"
#include "harness/trace/host_trace.hpp"

namespace h2d {

// Process ids of the rows in a trace: host threads under one process, each GPU its own.
constexpr int kTraceHostPid = 1;
constexpr int kTraceGpuPidBase = 100;  // GPU d is process 100 + d

// A timeline as Chrome trace event JSON (opens in https://ui.perfetto.dev and chrome://tracing):
// one row per named host thread with its NVTX ranges (category, bytes, case) and CUDA runtime
// calls, one process per GPU with one row per stream holding its copies (direction, bytes, memory
// kinds, GB/s), memsets and kernels, and an arrow from each call to the work it queued. Times are
// microseconds from the earliest record. `other_data` lands in "otherData". Pure.
nlohmann::json chrome_trace(const HostTimeline& host, const std::vector<ActivityRecord>& activity,
                            const std::map<std::uint32_t, std::string>& device_names,
                            const nlohmann::json& other_data);

}  // namespace h2d
