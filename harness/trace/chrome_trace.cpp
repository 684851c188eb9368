#include "harness/trace/chrome_trace.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <set>

#include "harness/core/byte_size.hpp"

namespace h2d {
namespace {

nlohmann::json metadata(const char* what, int pid, std::int64_t tid, nlohmann::json args) {
  nlohmann::json event = {{"ph", "M"}, {"name", what}, {"pid", pid}, {"args", std::move(args)}};
  if (tid >= 0) {
    event["tid"] = tid;
  }
  return event;
}

class Timebase {
 public:
  explicit Timebase(std::uint64_t origin_ns) : origin_(origin_ns) {}
  double us(std::uint64_t ns) const {
    return ns <= origin_ ? 0.0 : static_cast<double>(ns - origin_) / 1e3;
  }
  double span_us(std::uint64_t begin, std::uint64_t end) const {
    return end <= begin ? 0.0 : static_cast<double>(end - begin) / 1e3;
  }

 private:
  std::uint64_t origin_;
};

std::string gpu_event_name(const ActivityRecord& record) {
  switch (record.kind) {
    case ActivityKind::memcpy:
      return fmt::format("{} {}", to_string(record.copy), format_bytes(record.bytes));
    case ActivityKind::memset:
      return fmt::format("memset {}", format_bytes(record.bytes));
    case ActivityKind::kernel:
      return record.name.empty() ? std::string("kernel") : record.name;
    case ActivityKind::api_call:
      break;
  }
  return record.name;
}

nlohmann::json gpu_event_args(const ActivityRecord& record) {
  nlohmann::json args = {{"correlation", record.correlation}};
  if (record.kind == ActivityKind::memcpy || record.kind == ActivityKind::memset) {
    args["bytes"] = record.bytes;
  }
  if (record.kind == ActivityKind::memcpy) {
    args["direction"] = std::string(to_string(record.copy));
    args["source"] = std::string(to_string(record.source));
    args["destination"] = std::string(to_string(record.destination));
    if (record.end_ns > record.start_ns) {
      args["GB_per_s"] = gb_per_s(static_cast<double>(record.bytes),
                                  static_cast<double>(record.end_ns - record.start_ns) / 1e9);
    }
  }
  return args;
}

}  // namespace

nlohmann::json chrome_trace(const HostTimeline& host, const std::vector<ActivityRecord>& activity,
                            const std::map<std::uint32_t, std::string>& device_names,
                            const nlohmann::json& other_data) {
  std::uint64_t origin = std::numeric_limits<std::uint64_t>::max();
  for (const HostRange& range : host.ranges) {
    origin = std::min(origin, range.begin_ns);
  }
  for (const ActivityRecord& record : activity) {
    origin = std::min(origin, record.start_ns);
  }
  const Timebase time(origin == std::numeric_limits<std::uint64_t>::max() ? 0 : origin);

  nlohmann::json events = nlohmann::json::array();
  events.push_back(metadata("process_name", kTraceHostPid, -1, {{"name", "h2dbench host"}}));
  events.push_back(metadata("process_sort_index", kTraceHostPid, -1, {{"sort_index", 0}}));

  std::set<std::uint32_t> host_threads;
  for (const HostRange& range : host.ranges) {
    host_threads.insert(range.thread);
    nlohmann::json args = {{"case", range.case_name}};
    if (range.bytes != 0) {
      args["bytes"] = range.bytes;
    }
    events.push_back({{"ph", "X"},
                      {"name", range.name},
                      {"cat", std::string(to_string(range.category))},
                      {"ts", time.us(range.begin_ns)},
                      {"dur", time.span_us(range.begin_ns, range.end_ns)},
                      {"pid", kTraceHostPid},
                      {"tid", range.thread},
                      {"args", std::move(args)}});
  }

  std::set<std::pair<std::uint32_t, std::uint32_t>> streams;  // (device, stream)
  for (const ActivityRecord& record : activity) {
    if (record.kind == ActivityKind::api_call) {
      host_threads.insert(record.thread);
      events.push_back({{"ph", "X"},
                        {"name", record.name},
                        {"cat", "cuda_api"},
                        {"ts", time.us(record.start_ns)},
                        {"dur", time.span_us(record.start_ns, record.end_ns)},
                        {"pid", kTraceHostPid},
                        {"tid", record.thread},
                        {"args", {{"correlation", record.correlation}}}});
      continue;
    }
    const int pid = kTraceGpuPidBase + static_cast<int>(record.device);
    streams.insert({record.device, record.stream});
    events.push_back({{"ph", "X"},
                      {"name", gpu_event_name(record)},
                      {"cat", std::string(to_string(record.kind))},
                      {"ts", time.us(record.start_ns)},
                      {"dur", time.span_us(record.start_ns, record.end_ns)},
                      {"pid", pid},
                      {"tid", record.stream},
                      {"args", gpu_event_args(record)}});
  }

  // Arrows from each call to the GPU work it queued.
  const CallIndex calls(activity);
  for (const ActivityRecord& record : activity) {
    if (record.kind == ActivityKind::api_call) {
      continue;
    }
    const ActivityRecord* call = calls.queued_by(record);
    if (call == nullptr) {
      continue;
    }
    const ActivityRecord& api = *call;
    events.push_back({{"ph", "s"},
                      {"name", "queued"},
                      {"cat", "flow"},
                      {"id", record.correlation},
                      {"ts", time.us(api.start_ns)},
                      {"pid", kTraceHostPid},
                      {"tid", api.thread}});
    events.push_back({{"ph", "f"},
                      {"bp", "e"},
                      {"name", "queued"},
                      {"cat", "flow"},
                      {"id", record.correlation},
                      {"ts", time.us(record.start_ns)},
                      {"pid", kTraceGpuPidBase + static_cast<int>(record.device)},
                      {"tid", record.stream}});
  }

  for (std::uint32_t thread : host_threads) {
    const auto named = host.thread_names.find(thread);
    const std::string name =
        named != host.thread_names.end() ? named->second : fmt::format("thread {}", thread);
    events.push_back(metadata("thread_name", kTraceHostPid, thread, {{"name", name}}));
  }
  std::set<std::uint32_t> devices;
  for (const auto& [device, stream] : streams) {
    devices.insert(device);
    events.push_back(metadata("thread_name", kTraceGpuPidBase + static_cast<int>(device), stream,
                              {{"name", fmt::format("stream {}", stream)}}));
  }
  for (std::uint32_t device : devices) {
    const auto named = device_names.find(device);
    const std::string name = named != device_names.end()
                                 ? fmt::format("GPU {}: {}", device, named->second)
                                 : fmt::format("GPU {}", device);
    const int pid = kTraceGpuPidBase + static_cast<int>(device);
    events.push_back(metadata("process_name", pid, -1, {{"name", name}}));
    events.push_back(
        metadata("process_sort_index", pid, -1, {{"sort_index", 1 + static_cast<int>(device)}}));
  }

  return {{"traceEvents", std::move(events)},
          {"displayTimeUnit", "ms"},
          {"otherData", other_data.is_null() ? nlohmann::json::object() : other_data}};
}

}  // namespace h2d
