#pragma once

#include <cstdint>

#include "sim/runtime/activity_log.hpp"

namespace h2d::sim {

// Whether activities are being kept (set_activity_recording).
bool activity_recording();
// Keeps `activity` when recording is on.
void record_activity(Activity activity);
// A fresh id that links a runtime call to the GPU work it queued.
std::uint32_t next_correlation_id();

// One runtime call that queues or waits for work, as CUPTI's runtime API records show it: from
// construction to destruction on the calling thread, with the correlation id its work carries.
class RuntimeCall {
 public:
  explicit RuntimeCall(const char* name);
  ~RuntimeCall();
  RuntimeCall(const RuntimeCall&) = delete;
  RuntimeCall& operator=(const RuntimeCall&) = delete;

  std::uint32_t correlation_id() const { return correlation_id_; }
  void set_device(int device) { device_ = device; }

 private:
  const char* name_;
  std::uint32_t correlation_id_;
  std::uint64_t start_ns_;
  int device_ = 0;
};

}  // namespace h2d::sim
