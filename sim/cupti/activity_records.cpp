#include "sim/cupti/activity_records.hpp"

#include <unistd.h>

#include <cstring>
#include <mutex>
#include <string>
#include <unordered_set>

#include "sim/cupti/callback_names.hpp"

namespace h2d::sim::cupti {
namespace {

std::uint8_t memcpy_kind(int copy_kind) {
  switch (copy_kind) {
    case 1:
      return CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
    case 2:
      return CUPTI_ACTIVITY_MEMCPY_KIND_DTOH;
    case 3:
      return CUPTI_ACTIVITY_MEMCPY_KIND_DTOD;
    case 0:
      return CUPTI_ACTIVITY_MEMCPY_KIND_HTOH;
    default:
      return CUPTI_ACTIVITY_MEMCPY_KIND_UNKNOWN;
  }
}

std::uint8_t memory_kind(HostMemory memory) {
  switch (memory) {
    case HostMemory::pageable:
      return CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE;
    case HostMemory::pinned:
      return CUPTI_ACTIVITY_MEMORY_KIND_PINNED;
    case HostMemory::device:
      return CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    case HostMemory::none:
      break;
  }
  return CUPTI_ACTIVITY_MEMORY_KIND_UNKNOWN;
}

// Kernel records point at their name, as CUPTI's do: names live until the process ends.
const char* lasting_name(const std::string& name) {
  static std::mutex mutex;
  static auto* const names = new std::unordered_set<std::string>;
  std::lock_guard<std::mutex> lock(mutex);
  return names->insert(name).first->c_str();
}

void write_memcpy(const Activity& activity, CUpti_ActivityMemcpy6& record) {
  record.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
  record.copyKind = memcpy_kind(activity.copy_kind);
  record.srcKind = memory_kind(activity.source);
  record.dstKind = memory_kind(activity.destination);
  record.bytes = activity.bytes;
  record.start = activity.start_ns;
  record.end = activity.end_ns;
  record.deviceId = static_cast<std::uint32_t>(activity.device);
  record.contextId = static_cast<std::uint32_t>(activity.device) + 1;  // one context per device
  record.streamId = activity.stream_id;
  // The sim has no driver layer: the runtime call that queued the copy is also its driver call.
  record.correlationId = activity.correlation_id;
  record.runtimeCorrelationId = activity.correlation_id;
  record.copyCount = 1;
}

void write_memset(const Activity& activity, CUpti_ActivityMemset4& record) {
  record.kind = CUPTI_ACTIVITY_KIND_MEMSET;
  record.bytes = activity.bytes;
  record.start = activity.start_ns;
  record.end = activity.end_ns;
  record.deviceId = static_cast<std::uint32_t>(activity.device);
  record.contextId = static_cast<std::uint32_t>(activity.device) + 1;
  record.streamId = activity.stream_id;
  record.correlationId = activity.correlation_id;
  record.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
}

void write_kernel(const Activity& activity, CUpti_ActivityKind kind,
                  CUpti_ActivityKernel10& record) {
  record.kind = kind;
  record.start = activity.start_ns;
  record.end = activity.end_ns;
  record.completed = activity.end_ns;
  record.deviceId = static_cast<std::uint32_t>(activity.device);
  record.contextId = static_cast<std::uint32_t>(activity.device) + 1;
  record.streamId = activity.stream_id;
  record.correlationId = activity.correlation_id;
  record.name = lasting_name(activity.name);
}

void write_api(const Activity& activity, CUpti_ActivityAPI& record) {
  record.kind = CUPTI_ACTIVITY_KIND_RUNTIME;
  record.cbid = runtime_callback_id(activity.name);
  record.start = activity.start_ns;
  record.end = activity.end_ns;
  record.processId = static_cast<std::uint32_t>(getpid());
  record.threadId = activity.thread_id;
  record.correlationId = activity.correlation_id;
}

}  // namespace

CUpti_ActivityKind record_kind(const Activity& activity, bool concurrent_kernels) {
  switch (activity.type) {
    case ActivityType::memcpy:
      return CUPTI_ACTIVITY_KIND_MEMCPY;
    case ActivityType::memset:
      return CUPTI_ACTIVITY_KIND_MEMSET;
    case ActivityType::kernel:
      return concurrent_kernels ? CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL
                                : CUPTI_ACTIVITY_KIND_KERNEL;
    case ActivityType::runtime_call:
      return CUPTI_ACTIVITY_KIND_RUNTIME;
  }
  return CUPTI_ACTIVITY_KIND_INVALID;
}

std::size_t record_bytes(CUpti_ActivityKind kind) {
  switch (kind) {
    case CUPTI_ACTIVITY_KIND_MEMCPY:
      return sizeof(CUpti_ActivityMemcpy6);
    case CUPTI_ACTIVITY_KIND_MEMSET:
      return sizeof(CUpti_ActivityMemset4);
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
      return sizeof(CUpti_ActivityKernel10);
    case CUPTI_ACTIVITY_KIND_RUNTIME:
      return sizeof(CUpti_ActivityAPI);
    default:
      return 0;
  }
}

void write_record(const Activity& activity, CUpti_ActivityKind kind, std::uint8_t* at) {
  std::memset(at, 0, record_bytes(kind));
  switch (kind) {
    case CUPTI_ACTIVITY_KIND_MEMCPY:
      write_memcpy(activity, *reinterpret_cast<CUpti_ActivityMemcpy6*>(at));
      break;
    case CUPTI_ACTIVITY_KIND_MEMSET:
      write_memset(activity, *reinterpret_cast<CUpti_ActivityMemset4*>(at));
      break;
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
      write_kernel(activity, kind, *reinterpret_cast<CUpti_ActivityKernel10*>(at));
      break;
    case CUPTI_ACTIVITY_KIND_RUNTIME:
      write_api(activity, *reinterpret_cast<CUpti_ActivityAPI*>(at));
      break;
    default:
      break;
  }
}

}  // namespace h2d::sim::cupti
