#pragma once

// CUPTI's asynchronous buffer API (cupti_activity.h, "Activity API"), over the sim's activity
// log: while a kind is enabled the log records, and its entries of enabled kinds are written into
// buffers the client hands out and handed back through its completion callback. A delivery thread
// does so every few tens of milliseconds, as CUPTI's own thread returns full buffers, so a long
// trace does not pile up in the log; cuptiActivityFlushAll delivers the rest at once.

#include <cupti.h>

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "sim/runtime/activity_log.hpp"

namespace h2d::sim::cupti {

class ActivityDelivery {
 public:
  static ActivityDelivery& instance();  // one per process, like CUPTI; never destroyed

  CUptiResult register_callbacks(CUpti_BuffersCallbackRequestFunc request,
                                 CUpti_BuffersCallbackCompleteFunc complete);
  CUptiResult enable(CUpti_ActivityKind kind);
  CUptiResult disable(CUpti_ActivityKind kind);
  CUptiResult flush();
  // Records lost to missing buffer space since the last call (CUPTI resets the count when read).
  std::size_t take_dropped();

 private:
  ActivityDelivery() = default;

  bool enabled(CUpti_ActivityKind kind) const;
  bool any_enabled() const;
  void drain_log();        // moves the log's entries of enabled kinds to pending_; holds mutex_
  void deliver_pending();  // holds mutex_; calls the client's callbacks
  void deliver_periodically();
  void stop_delivery_thread(std::unique_lock<std::mutex>& lock);

  std::mutex mutex_;  // serializes enabling and delivery: callbacks run one buffer at a time
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread delivery_thread_;
  CUpti_BuffersCallbackRequestFunc request_ = nullptr;
  CUpti_BuffersCallbackCompleteFunc complete_ = nullptr;
  bool enabled_[CUPTI_ACTIVITY_KIND_COUNT] = {};
  std::vector<std::pair<Activity, CUpti_ActivityKind>> pending_;
  std::size_t dropped_ = 0;  // guarded by dropped_mutex_: read from inside completion callbacks
  std::mutex dropped_mutex_;
};

}  // namespace h2d::sim::cupti
