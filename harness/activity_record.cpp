#include "harness/activity_record.hpp"

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

}  // namespace h2d
