#include "harness/trace/trace_findings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "harness/core/byte_size.hpp"
#include "harness/core/case_name.hpp"

namespace h2d {
namespace {

bool counter_is_one(const std::map<std::string, double>& counters, const char* key) {
  const auto it = counters.find(key);
  return it != counters.end() && it->second == 1.0;
}

struct Window {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
  bool contains(std::uint64_t t) const { return begin <= t && t <= end; }
};

// A `copy` range and the case it belongs to.
struct CopyRange {
  Window window;
  std::uint32_t thread = 0;
  std::string case_name;
};

// The case of a range: the case range open on its thread, else (worker threads) the case range
// whose time window holds it.
std::string owning_case(const HostRange& range,
                        const std::vector<std::pair<Window, std::string>>& cases) {
  if (!range.case_name.empty()) {
    return range.case_name;
  }
  for (const auto& [window, name] : cases) {
    if (window.contains(range.begin_ns) && window.contains(range.end_ns)) {
      return name;
    }
  }
  return {};
}

// Copy ranges sorted by start, searchable by a time point.
class CopyRangeIndex {
 public:
  explicit CopyRangeIndex(std::vector<CopyRange> ranges) : ranges_(std::move(ranges)) {
    std::sort(ranges_.begin(), ranges_.end(), [](const CopyRange& a, const CopyRange& b) {
      return a.window.begin < b.window.begin;
    });
    for (const CopyRange& range : ranges_) {
      longest_ = std::max(longest_, range.window.end - range.window.begin);
    }
  }

  // The latest-starting range holding `t`, on `thread` when given.
  const CopyRange* find(std::uint64_t t, std::optional<std::uint32_t> thread) const {
    auto it = std::upper_bound(
        ranges_.begin(), ranges_.end(), t,
        [](std::uint64_t value, const CopyRange& range) { return value < range.window.begin; });
    while (it != ranges_.begin()) {
      --it;
      if (t - it->window.begin > longest_) {
        break;  // every earlier range ended before t
      }
      if (it->window.contains(t) && (!thread || it->thread == *thread)) {
        return &*it;
      }
    }
    return nullptr;
  }

 private:
  std::vector<CopyRange> ranges_;
  std::uint64_t longest_ = 0;
};

// GPU busy intervals of one stream, merged and sorted, for overlap queries.
class BusyIntervals {
 public:
  void add(std::uint64_t begin, std::uint64_t end) { raw_.push_back({begin, end}); }

  void finish() {
    std::sort(raw_.begin(), raw_.end(),
              [](const Window& a, const Window& b) { return a.begin < b.begin; });
    for (const Window& w : raw_) {
      if (!merged_.empty() && w.begin <= merged_.back().end) {
        merged_.back().end = std::max(merged_.back().end, w.end);
      } else {
        merged_.push_back(w);
      }
    }
    raw_.clear();
  }

  std::uint64_t overlap(std::uint64_t begin, std::uint64_t end) const {
    std::uint64_t total = 0;
    auto it =
        std::upper_bound(merged_.begin(), merged_.end(), begin,
                         [](std::uint64_t value, const Window& w) { return value < w.begin; });
    if (it != merged_.begin()) {
      --it;
    }
    for (; it != merged_.end() && it->begin < end; ++it) {
      const std::uint64_t lo = std::max(begin, it->begin);
      const std::uint64_t hi = std::min(end, it->end);
      if (hi > lo) {
        total += hi - lo;
      }
    }
    return total;
  }

 private:
  std::vector<Window> raw_;
  std::vector<Window> merged_;
};

struct MeasuredCopy {
  const ActivityRecord* copy = nullptr;
  const ActivityRecord* call = nullptr;  // the runtime call that queued it, when recorded
};

std::optional<TraceFinding> check_pinned(const std::string& name,
                                         const std::vector<MeasuredCopy>& copies) {
  std::size_t known = 0;
  std::size_t pageable = 0;
  std::uint64_t pageable_bytes = 0;
  for (const MeasuredCopy& measured : copies) {
    const MemoryKind host = host_side(*measured.copy);
    if (host == MemoryKind::unknown || host == MemoryKind::device) {
      continue;
    }
    ++known;
    if (host == MemoryKind::pageable) {
      ++pageable;
      pageable_bytes += measured.copy->bytes;
    }
  }
  if (pageable == 0) {
    return std::nullopt;
  }
  TraceFinding finding;
  finding.name = name;
  finding.check = "pinned_claim_pageable_copies";
  finding.message = fmt::format(
      "claims page-locked host memory, but CUPTI saw {} of its {} host copies ({}) use pageable "
      "memory: the driver staged them through its own buffer",
      pageable, known, format_bytes(pageable_bytes));
  finding.details = {{"copies", known}, {"pageable_copies", pageable}};
  return finding;
}

std::optional<TraceFinding> check_async(
    const std::string& name, const std::vector<MeasuredCopy>& copies,
    const std::map<std::pair<std::uint32_t, std::uint32_t>, BusyIntervals>& busy) {
  // Only copies whose call was recorded are judged: without the call, a latched copy that ran
  // while the host was free would look like one that overlapped nothing.
  std::uint64_t total = 0;
  std::uint64_t overlapped = 0;
  std::size_t judged = 0;
  for (const MeasuredCopy& measured : copies) {
    const ActivityRecord& copy = *measured.copy;
    if (measured.call == nullptr || copy.end_ns <= copy.start_ns) {
      continue;
    }
    const std::uint64_t duration = copy.end_ns - copy.start_ns;
    // The host was free while the copy ran after its call had returned.
    const std::uint64_t free_from = std::max(copy.start_ns, measured.call->end_ns);
    std::uint64_t overlap = copy.end_ns > free_from ? copy.end_ns - free_from : 0;
    for (const auto& [key, intervals] : busy) {
      if (key.first == copy.device && key.second != copy.stream) {
        overlap += intervals.overlap(copy.start_ns, copy.end_ns);
      }
    }
    total += duration;
    overlapped += std::min(overlap, duration);
    ++judged;
  }
  if (total == 0) {
    return std::nullopt;  // nothing to judge by
  }
  const double share = static_cast<double>(overlapped) / static_cast<double>(total);
  if (share >= kMinAsyncOverlap) {
    return std::nullopt;
  }
  TraceFinding finding;
  finding.name = name;
  finding.check = "async_without_overlap";
  finding.message = fmt::format(
      "is async, but its copies overlapped host work or other GPU work for only {:.1f}% of their "
      "time: the calls returned only once the copies were (nearly) done, as cudaMemcpyAsync does "
      "from pageable memory",
      100.0 * share);
  finding.details = {{"copies", judged}, {"overlap_pct", 100.0 * share}};
  return finding;
}

}  // namespace

CaseClaims case_claims(const std::string& name, const std::map<std::string, double>& counters) {
  const ParsedCaseName parsed = parse_case_name(name);
  CaseClaims claims = declared_claims(find_declared_family(parsed.family), parsed.params);
  if (!claims.pinned && counter_is_one(counters, "host_pinned")) {
    claims.pinned = true;  // CUDA itself said the case's host memory is page-locked
    claims.pinned_by = "host_pinned=1";
  }
  return claims;
}

std::map<std::string, CaseClaims> report_claims(const nlohmann::json& report) {
  std::map<std::string, CaseClaims> claims;
  if (!report.contains("benchmarks") || !report["benchmarks"].is_array()) {
    return claims;
  }
  for (const auto& run : report["benchmarks"]) {
    if (!run.is_object() || !run.contains("run_name") || !run["run_name"].is_string()) {
      continue;
    }
    std::map<std::string, double> counters;
    for (const auto& [key, value] : run.items()) {
      if (value.is_number()) {
        counters[key] = value.get<double>();
      }
    }
    const std::string name = run["run_name"].get<std::string>();
    const CaseClaims found = case_claims(name, counters);
    CaseClaims& merged = claims[name];
    if (!merged.pinned && found.pinned) {
      merged.pinned = true;
      merged.pinned_by = found.pinned_by;
    }
    merged.async = merged.async || found.async;
  }
  return claims;
}

std::vector<TraceFinding> check_trace(const HostTimeline& host,
                                      const std::vector<ActivityRecord>& activity,
                                      const std::map<std::string, CaseClaims>& claims) {
  std::vector<std::pair<Window, std::string>> cases;
  for (const HostRange& range : host.ranges) {
    if (range.category == NvtxCategory::bench_case) {
      cases.push_back({{range.begin_ns, range.end_ns}, range.name});
    }
  }
  std::vector<CopyRange> copy_ranges;
  for (const HostRange& range : host.ranges) {
    if (range.category != NvtxCategory::copy) {
      continue;
    }
    std::string owner = owning_case(range, cases);
    if (!owner.empty()) {
      copy_ranges.push_back({{range.begin_ns, range.end_ns}, range.thread, std::move(owner)});
    }
  }
  const CopyRangeIndex index(std::move(copy_ranges));

  const CallIndex calls(activity);
  std::map<std::pair<std::uint32_t, std::uint32_t>, BusyIntervals> busy;  // (device, stream)
  for (const ActivityRecord& record : activity) {
    if (record.kind != ActivityKind::api_call) {
      busy[{record.device, record.stream}].add(record.start_ns, record.end_ns);
    }
  }
  for (auto& [key, intervals] : busy) {
    intervals.finish();
  }

  std::map<std::string, std::vector<MeasuredCopy>> measured;
  for (const ActivityRecord& record : activity) {
    if (record.kind != ActivityKind::memcpy) {
      continue;
    }
    const ActivityRecord* api = calls.queued_by(record);
    const CopyRange* range = nullptr;
    if (api != nullptr) {
      range = index.find(api->start_ns, api->thread);
      if (range == nullptr) {
        range = index.find(api->start_ns, std::nullopt);
      }
    } else {
      range = index.find(record.start_ns, std::nullopt);
    }
    if (range != nullptr) {
      measured[range->case_name].push_back({&record, api});
    }
  }

  std::vector<TraceFinding> findings;
  for (const auto& [name, copies] : measured) {
    const auto claim = claims.find(name);
    if (claim == claims.end()) {
      continue;
    }
    if (claim->second.pinned) {
      if (auto finding = check_pinned(name, copies)) {
        findings.push_back(std::move(*finding));
      }
    }
    if (claim->second.async) {
      if (auto finding = check_async(name, copies, busy)) {
        findings.push_back(std::move(*finding));
      }
    }
  }
  return findings;
}

nlohmann::json findings_to_json(const std::vector<TraceFinding>& findings) {
  nlohmann::json list = nlohmann::json::array();
  for (const TraceFinding& finding : findings) {
    list.push_back({{"name", finding.name},
                    {"check", finding.check},
                    {"message", finding.message},
                    {"details", finding.details}});
  }
  return list;
}

}  // namespace h2d
