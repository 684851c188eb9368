// The CUPTI entry points h2dbench calls (harness/cupti_activity.cpp), with the toolkit's own
// declarations from <cupti.h>: the sim links these instead of libcupti.

#include <cupti.h>

#include <cstdint>

#include "sim/cupti/activity_delivery.hpp"
#include "sim/cupti/activity_records.hpp"
#include "sim/cupti/callback_names.hpp"
#include "sim/runtime/activity_log.hpp"

using h2d::sim::cupti::ActivityDelivery;

CUptiResult CUPTIAPI
cuptiActivityRegisterCallbacks(CUpti_BuffersCallbackRequestFunc funcBufferRequested,
                               CUpti_BuffersCallbackCompleteFunc funcBufferCompleted) {
  return ActivityDelivery::instance().register_callbacks(funcBufferRequested, funcBufferCompleted);
}

CUptiResult CUPTIAPI cuptiActivityEnable(CUpti_ActivityKind kind) {
  return ActivityDelivery::instance().enable(kind);
}

CUptiResult CUPTIAPI cuptiActivityDisable(CUpti_ActivityKind kind) {
  return ActivityDelivery::instance().disable(kind);
}

// The sim's work is finished when it is logged, so a forced flush and a plain one deliver alike.
CUptiResult CUPTIAPI cuptiActivityFlushAll(uint32_t /*flag*/) {
  return ActivityDelivery::instance().flush();
}

CUptiResult CUPTIAPI cuptiActivityGetNumDroppedRecords(CUcontext /*context*/, uint32_t /*streamId*/,
                                                       size_t* dropped) {
  if (dropped == nullptr) {
    return CUPTI_ERROR_INVALID_PARAMETER;
  }
  *dropped = ActivityDelivery::instance().take_dropped();
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityGetNextRecord(uint8_t* buffer, size_t validBufferSizeBytes,
                                                CUpti_Activity** record) {
  if (buffer == nullptr || record == nullptr) {
    return CUPTI_ERROR_INVALID_PARAMETER;
  }
  std::size_t offset = 0;
  if (*record != nullptr) {
    offset = static_cast<std::size_t>(reinterpret_cast<uint8_t*>(*record) - buffer) +
             h2d::sim::cupti::record_bytes((*record)->kind);
  }
  if (offset >= validBufferSizeBytes) {
    return CUPTI_ERROR_MAX_LIMIT_REACHED;
  }
  auto* const next = reinterpret_cast<CUpti_Activity*>(buffer + offset);
  const std::size_t bytes = h2d::sim::cupti::record_bytes(next->kind);
  if (bytes == 0 || offset + bytes > validBufferSizeBytes) {
    return CUPTI_ERROR_INVALID_KIND;
  }
  *record = next;
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetTimestamp(uint64_t* timestamp) {
  if (timestamp == nullptr) {
    return CUPTI_ERROR_INVALID_PARAMETER;
  }
  *timestamp = h2d::sim::clock_ns();
  return CUPTI_SUCCESS;
}

// The sim's log keeps the OS thread id (gettid) of each call, which is what
// CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM asks for; the default type would be pthread_self's.
CUptiResult CUPTIAPI cuptiSetThreadIdType(CUpti_ActivityThreadIdType type) {
  return type == CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM ||
                 type == CUPTI_ACTIVITY_THREAD_ID_TYPE_DEFAULT
             ? CUPTI_SUCCESS
             : CUPTI_ERROR_INVALID_PARAMETER;
}

CUptiResult CUPTIAPI cuptiGetCallbackName(CUpti_CallbackDomain domain, uint32_t cbid,
                                          const char** name) {
  if (name == nullptr) {
    return CUPTI_ERROR_INVALID_PARAMETER;
  }
  *name = domain == CUPTI_CB_DOMAIN_RUNTIME_API ? h2d::sim::cupti::runtime_callback_name(cbid)
                                                : nullptr;
  return *name != nullptr ? CUPTI_SUCCESS : CUPTI_ERROR_INVALID_PARAMETER;
}
