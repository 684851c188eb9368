#pragma once

#include <cstdint>
#include <vector>

#include "harness/trace/activity_record.hpp"

namespace h2d {

// GPU activity recorded with CUPTI's Activity API: copies (with the memory kinds the driver saw),
// memsets, kernels, and the runtime calls that queued them or waited for them.
// CUPTI needs a driver and a device: create one only when discover_devices().usable(). Nothing
// else touches CUPTI, so h2dbench starts and runs its host families where libcupti.so is present
// but no driver is.
class CuptiActivity {
 public:
  struct Result {
    std::vector<ActivityRecord> records;  // calls kept only when they queued work or synchronized
    std::uint64_t dropped = 0;            // records CUPTI could not store
  };

  // Starts recording. Throws std::runtime_error with CUPTI's message when it cannot.
  CuptiActivity();
  CuptiActivity(const CuptiActivity&) = delete;
  CuptiActivity& operator=(const CuptiActivity&) = delete;
  ~CuptiActivity();

  // CUPTI's clock (ns). Host ranges recorded on it line up with the activity records.
  static std::uint64_t now_ns();

  // Flushes, stops recording and returns what was recorded. Call after the GPU work finished.
  Result stop();

 private:
  bool running_ = false;
};

}  // namespace h2d
