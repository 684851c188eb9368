#include "harness/cuda/cupti_activity.hpp"

#include <cupti.h>
#include <cxxabi.h>
#include <fmt/format.h>

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "harness/cuda/cupti_records.hpp"

namespace h2d {
namespace {

// Records are read through the oldest struct of each kind that has the fields we use: CUPTI
// appends fields to newer versions and keeps the leading ones in place, so these views read any
// version from CUDA 11.8 on. The asserts prove it for the toolkit at hand, against the struct
// versions it delivers (cupti_records.hpp).
using MemcpyView = CUpti_ActivityMemcpy;
using MemsetView = CUpti_ActivityMemset;
using KernelView = CUpti_ActivityKernel4;
#define H2D_SAME_OFFSET(view, full, field) \
  static_assert(offsetof(view, field) == offsetof(full, field), #view "." #field " moved")
using cupti_records::DeliveredKernel;
using cupti_records::DeliveredMemcpy;
using cupti_records::DeliveredMemset;
H2D_SAME_OFFSET(MemcpyView, DeliveredMemcpy, copyKind);
H2D_SAME_OFFSET(MemcpyView, DeliveredMemcpy, srcKind);
H2D_SAME_OFFSET(MemcpyView, DeliveredMemcpy, dstKind);
H2D_SAME_OFFSET(MemcpyView, DeliveredMemcpy, bytes);
H2D_SAME_OFFSET(MemcpyView, DeliveredMemcpy, start);
H2D_SAME_OFFSET(MemcpyView, DeliveredMemcpy, end);
H2D_SAME_OFFSET(MemcpyView, DeliveredMemcpy, deviceId);
H2D_SAME_OFFSET(MemcpyView, DeliveredMemcpy, streamId);
H2D_SAME_OFFSET(MemcpyView, DeliveredMemcpy, correlationId);
H2D_SAME_OFFSET(MemcpyView, DeliveredMemcpy, runtimeCorrelationId);
H2D_SAME_OFFSET(MemsetView, DeliveredMemset, bytes);
H2D_SAME_OFFSET(MemsetView, DeliveredMemset, start);
H2D_SAME_OFFSET(MemsetView, DeliveredMemset, end);
H2D_SAME_OFFSET(MemsetView, DeliveredMemset, deviceId);
H2D_SAME_OFFSET(MemsetView, DeliveredMemset, streamId);
H2D_SAME_OFFSET(MemsetView, DeliveredMemset, correlationId);
H2D_SAME_OFFSET(KernelView, DeliveredKernel, start);
H2D_SAME_OFFSET(KernelView, DeliveredKernel, end);
H2D_SAME_OFFSET(KernelView, DeliveredKernel, deviceId);
H2D_SAME_OFFSET(KernelView, DeliveredKernel, streamId);
H2D_SAME_OFFSET(KernelView, DeliveredKernel, correlationId);
H2D_SAME_OFFSET(KernelView, DeliveredKernel, name);
#undef H2D_SAME_OFFSET

constexpr std::size_t kBufferBytes = std::size_t{8} << 20;
constexpr std::size_t kBufferAlignment = 8;  // CUPTI's requirement for activity buffers

constexpr CUpti_ActivityKind kKinds[] = {
    CUPTI_ACTIVITY_KIND_MEMCPY,
    CUPTI_ACTIVITY_KIND_MEMSET,
    CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,  // does not serialize kernels, unlike KIND_KERNEL
    // Runtime calls name what the program asked for; driver calls are recorded too, because a
    // copy's correlation id is its driver call's, and the driver is traced however the runtime
    // was linked.
    CUPTI_ACTIVITY_KIND_RUNTIME,
    CUPTI_ACTIVITY_KIND_DRIVER,
};

// CUPTI delivers buffers on its own thread through C callbacks: they fill this.
struct Collected {
  std::mutex mutex;
  std::vector<ActivityRecord> records;
  std::uint64_t dropped = 0;
};
Collected& collected() {
  static Collected* const instance = new Collected;  // callbacks may come late; never destroyed
  return *instance;
}

std::string result_text(CUptiResult result) {
  const char* text = nullptr;
  if (cuptiGetResultString(result, &text) != CUPTI_SUCCESS || text == nullptr) {
    return fmt::format("CUPTI error {}", static_cast<int>(result));
  }
  return text;
}

void check(CUptiResult result, const char* call) {
  if (result != CUPTI_SUCCESS) {
    throw std::runtime_error(fmt::format("{} failed: {}", call, result_text(result)));
  }
}

MemoryKind memory_kind(std::uint8_t kind) {
  switch (kind) {
    case CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE:
      return MemoryKind::pageable;
    case CUPTI_ACTIVITY_MEMORY_KIND_PINNED:
      return MemoryKind::pinned;
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE:
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE_STATIC:
      return MemoryKind::device;
    case CUPTI_ACTIVITY_MEMORY_KIND_ARRAY:
      return MemoryKind::array;
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED:
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED_STATIC:
      return MemoryKind::managed;
    default:
      return MemoryKind::unknown;
  }
}

CopyKind copy_kind(std::uint8_t kind) {
  switch (kind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOA:
      return CopyKind::h2d;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOH:
      return CopyKind::d2h;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
      return CopyKind::d2d;
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH:
      return CopyKind::h2h;
    case CUPTI_ACTIVITY_MEMCPY_KIND_UNKNOWN:
      return CopyKind::unknown;
    default:
      return CopyKind::other;
  }
}

std::string demangle(const char* name) {
  if (name == nullptr) {
    return "kernel";
  }
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> readable(
      abi::__cxa_demangle(name, nullptr, nullptr, &status), std::free);
  return status == 0 && readable ? std::string(readable.get()) : std::string(name);
}

// "cudaMemcpyAsync_v3020" -> "cudaMemcpyAsync": the name a user wrote.
std::string call_name(CUpti_CallbackDomain domain, std::uint32_t cbid) {
  const char* name = nullptr;
  if (cuptiGetCallbackName(domain, cbid, &name) != CUPTI_SUCCESS || name == nullptr) {
    return fmt::format("CUDA {} call {}",
                       domain == CUPTI_CB_DOMAIN_RUNTIME_API ? "runtime" : "driver", cbid);
  }
  std::string text(name);
  const std::size_t version = text.rfind("_v");
  if (version != std::string::npos && version + 2 < text.size() &&
      text.find_first_not_of("0123456789", version + 2) == std::string::npos) {
    text.erase(version);
  }
  return text;
}

// What a call is called and whether a trace can use it, looked up once per call id: CUPTI hands
// over a record for every call, and a polling loop makes millions of the same few.
struct CallInfo {
  std::string name;
  bool bookkeeping = false;  // is_bookkeeping_call: dropped at once
};
const CallInfo& call_info(CUpti_CallbackDomain domain, std::uint32_t cbid) {
  struct Known {
    std::mutex mutex;  // buffers may be completed on several threads at once
    std::unordered_map<std::uint64_t, CallInfo> calls;
  };
  static Known* const known = new Known;  // like collected(): callbacks may come late
  const std::uint64_t key = (static_cast<std::uint64_t>(domain) << 32) | cbid;
  std::lock_guard<std::mutex> lock(known->mutex);
  auto found = known->calls.find(key);
  if (found == known->calls.end()) {
    CallInfo info;
    info.name = call_name(domain, cbid);
    info.bookkeeping = is_bookkeeping_call(info.name);
    found = known->calls.emplace(key, std::move(info)).first;
  }
  return found->second;  // unordered_map never moves its elements
}

// A wait (cudaStreamSynchronize, cuEventSynchronize, ...): kept though it queued nothing.
bool is_synchronize(const ActivityRecord& call) {
  return call.name.find("Synchronize") != std::string::npos;
}

std::optional<ActivityRecord> convert(const CUpti_Activity& activity) {
  ActivityRecord record;
  switch (activity.kind) {
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
      const auto& copy = reinterpret_cast<const MemcpyView&>(activity);
      record.kind = ActivityKind::memcpy;
      record.copy = copy_kind(copy.copyKind);
      record.source = memory_kind(copy.srcKind);
      record.destination = memory_kind(copy.dstKind);
      record.bytes = copy.bytes;
      record.start_ns = copy.start;
      record.end_ns = copy.end;
      record.device = copy.deviceId;
      record.stream = copy.streamId;
      record.correlation = copy.correlationId;
      record.runtime_correlation = copy.runtimeCorrelationId;
      break;
    }
    case CUPTI_ACTIVITY_KIND_MEMSET: {
      const auto& set = reinterpret_cast<const MemsetView&>(activity);
      record.kind = ActivityKind::memset;
      record.bytes = set.bytes;
      record.start_ns = set.start;
      record.end_ns = set.end;
      record.device = set.deviceId;
      record.stream = set.streamId;
      record.correlation = set.correlationId;
      break;
    }
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
      const auto& kernel = reinterpret_cast<const KernelView&>(activity);
      record.kind = ActivityKind::kernel;
      record.name = demangle(kernel.name);
      record.start_ns = kernel.start;
      record.end_ns = kernel.end;
      record.device = kernel.deviceId;
      record.stream = kernel.streamId;
      record.correlation = kernel.correlationId;
      break;
    }
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER: {
      const auto& call = reinterpret_cast<const CUpti_ActivityAPI&>(activity);
      const CallInfo& info =
          call_info(activity.kind == CUPTI_ACTIVITY_KIND_RUNTIME ? CUPTI_CB_DOMAIN_RUNTIME_API
                                                                 : CUPTI_CB_DOMAIN_DRIVER_API,
                    call.cbid);
      if (info.bookkeeping) {
        return std::nullopt;  // never kept; held until stop() they would grow without bound
      }
      record.kind = ActivityKind::api_call;
      record.name = info.name;
      record.start_ns = call.start;
      record.end_ns = call.end;
      record.thread = call.threadId;
      record.correlation = call.correlationId;
      break;
    }
    default:
      return std::nullopt;
  }
  if (record.start_ns == 0 && record.end_ns == 0) {
    return std::nullopt;  // CUPTI could not time it
  }
  return record;
}

void CUPTIAPI buffer_requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
  *buffer = static_cast<std::uint8_t*>(std::aligned_alloc(kBufferAlignment, kBufferBytes));
  *size = *buffer != nullptr ? kBufferBytes : 0;  // 0: CUPTI drops records and counts them
  *max_records = 0;                               // as many as fit
}

void CUPTIAPI buffer_completed(CUcontext context, std::uint32_t stream, std::uint8_t* buffer,
                               std::size_t /*size*/, std::size_t valid) {
  try {
    std::vector<ActivityRecord> parsed;
    CUpti_Activity* activity = nullptr;
    while (valid > 0 && cuptiActivityGetNextRecord(buffer, valid, &activity) == CUPTI_SUCCESS) {
      if (std::optional<ActivityRecord> record = convert(*activity)) {
        parsed.push_back(std::move(*record));
      }
    }
    std::size_t dropped = 0;
    if (cuptiActivityGetNumDroppedRecords(context, stream, &dropped) != CUPTI_SUCCESS) {
      dropped = 0;
    }
    Collected& sink = collected();
    std::lock_guard<std::mutex> lock(sink.mutex);
    sink.records.insert(sink.records.end(), std::make_move_iterator(parsed.begin()),
                        std::make_move_iterator(parsed.end()));
    sink.dropped += dropped;
  } catch (...) {
    // Nothing may unwind into CUPTI; a lost buffer shows as missing records.
  }
  std::free(buffer);
}

void disable_all() {
  for (CUpti_ActivityKind kind : kKinds) {
    cuptiActivityDisable(kind);
  }
}

}  // namespace

CuptiActivity::CuptiActivity() {
  {
    Collected& sink = collected();
    std::lock_guard<std::mutex> lock(sink.mutex);
    sink.records.clear();
    sink.dropped = 0;
  }
  static std::once_flag registered;
  std::call_once(registered, [] {
    check(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed),
          "cuptiActivityRegisterCallbacks");
  });
  // Thread ids as gettid gives them, the ids NVTX thread names and host ranges use.
  check(cuptiSetThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM), "cuptiSetThreadIdType");
  for (CUpti_ActivityKind kind : kKinds) {
    const CUptiResult result = cuptiActivityEnable(kind);
    if (result != CUPTI_SUCCESS) {
      disable_all();
      throw std::runtime_error(fmt::format("cuptiActivityEnable({}) failed: {}",
                                           static_cast<int>(kind), result_text(result)));
    }
  }
  running_ = true;
}

CuptiActivity::~CuptiActivity() {
  if (running_) {
    try {
      stop();
    } catch (...) {
      disable_all();
    }
  }
}

std::uint64_t CuptiActivity::now_ns() {
  std::uint64_t timestamp = 0;
  if (cuptiGetTimestamp(&timestamp) != CUPTI_SUCCESS) {
    return 0;
  }
  return timestamp;
}

CuptiActivity::Result CuptiActivity::stop() {
  running_ = false;
  // Forced: also hand over buffers that are not full yet. The work itself has finished.
  check(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), "cuptiActivityFlushAll");
  disable_all();
  check(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), "cuptiActivityFlushAll");

  Result result;
  std::vector<ActivityRecord> all;
  {
    Collected& sink = collected();
    std::lock_guard<std::mutex> lock(sink.mutex);
    all = std::move(sink.records);
    sink.records.clear();
    result.dropped = sink.dropped;
  }
  // Keep the calls that queued recorded work or waited for it; the rest only fill the timeline.
  std::unordered_set<std::uint32_t> queued;
  for (const ActivityRecord& record : all) {
    if (record.kind != ActivityKind::api_call) {
      queued.insert(record.correlation);
      queued.insert(record.runtime_correlation);
    }
  }
  queued.erase(0);
  for (ActivityRecord& record : all) {
    if (record.kind == ActivityKind::api_call && !is_synchronize(record) &&
        queued.count(record.correlation) == 0) {
      continue;
    }
    result.records.push_back(std::move(record));
  }
  return result;
}

}  // namespace h2d
