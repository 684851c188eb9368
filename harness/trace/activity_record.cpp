#include "harness/trace/activity_record.hpp"

#include <array>

namespace h2d {

std::string_view to_string(ActivityKind kind) {
  switch (kind) {
    case ActivityKind::memcpy:
      return "memcpy";
    case ActivityKind::memset:
      return "memset";
    case ActivityKind::kernel:
      return "kernel";
    case ActivityKind::api_call:
      return "api_call";
  }
  return "unknown";
}

std::string_view to_string(MemoryKind kind) {
  switch (kind) {
    case MemoryKind::unknown:
      return "unknown";
    case MemoryKind::pageable:
      return "pageable";
    case MemoryKind::pinned:
      return "pinned";
    case MemoryKind::device:
      return "device";
    case MemoryKind::array:
      return "array";
    case MemoryKind::managed:
      return "managed";
  }
  return "unknown";
}

std::string_view to_string(CopyKind kind) {
  switch (kind) {
    case CopyKind::unknown:
      return "unknown";
    case CopyKind::h2d:
      return "HtoD";
    case CopyKind::d2h:
      return "DtoH";
    case CopyKind::d2d:
      return "DtoD";
    case CopyKind::h2h:
      return "HtoH";
    case CopyKind::other:
      return "other";
  }
  return "unknown";
}

bool is_bookkeeping_call(std::string_view name) {
  // Prefixes, so the per-thread-stream variants (cudaStreamQuery_ptsz) and the families
  // (cudaGetDeviceCount, cuPointerGetAttributes) are covered; none of them starts a call that
  // queues work or synchronizes.
  static constexpr std::array<std::string_view, 15> kPrefixes = {
      "cudaEventQuery",        "cuEventQuery",
      "cudaStreamQuery",       "cuStreamQuery",
      "cudaGetLastError",      "cudaPeekAtLastError",
      "cudaGetDevice",         "cudaSetDevice",
      "cuCtxGetCurrent",       "cuCtxSetCurrent",
      "cuCtxGetDevice",        "cudaEventElapsedTime",
      "cuEventElapsedTime",    "cudaPointerGetAttributes",
      "cuPointerGetAttribute",
  };
  for (std::string_view prefix : kPrefixes) {
    if (name.substr(0, prefix.size()) == prefix) {
      return true;
    }
  }
  return false;
}

MemoryKind host_side(const ActivityRecord& copy) {
  if (copy.kind != ActivityKind::memcpy) {
    return MemoryKind::unknown;
  }
  switch (copy.copy) {
    case CopyKind::h2d:
      return copy.source;
    case CopyKind::d2h:
      return copy.destination;
    default:
      return MemoryKind::unknown;
  }
}

CallIndex::CallIndex(const std::vector<ActivityRecord>& activity) {
  for (const ActivityRecord& record : activity) {
    if (record.kind == ActivityKind::api_call) {
      calls_[record.correlation] = &record;
    }
  }
}

const ActivityRecord* CallIndex::queued_by(const ActivityRecord& work) const {
  for (std::uint32_t id : {work.runtime_correlation, work.correlation}) {
    if (id == 0) {
      continue;
    }
    const auto found = calls_.find(id);
    if (found != calls_.end()) {
      return found->second;
    }
  }
  return nullptr;
}

}  // namespace h2d
