#include "sim/cupti/activity_delivery.hpp"

#include <chrono>

#include "sim/cupti/activity_records.hpp"

namespace h2d::sim::cupti {
namespace {

constexpr std::chrono::milliseconds kDeliveryPeriod{50};

}  // namespace

ActivityDelivery& ActivityDelivery::instance() {
  static ActivityDelivery* const delivery = new ActivityDelivery;  // callbacks may come at exit
  return *delivery;
}

CUptiResult ActivityDelivery::register_callbacks(CUpti_BuffersCallbackRequestFunc request,
                                                 CUpti_BuffersCallbackCompleteFunc complete) {
  if (request == nullptr || complete == nullptr) {
    return CUPTI_ERROR_INVALID_PARAMETER;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  request_ = request;
  complete_ = complete;
  return CUPTI_SUCCESS;
}

CUptiResult ActivityDelivery::enable(CUpti_ActivityKind kind) {
  if (kind <= CUPTI_ACTIVITY_KIND_INVALID || kind >= CUPTI_ACTIVITY_KIND_COUNT) {
    return CUPTI_ERROR_INVALID_KIND;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  drain_log();  // what was recorded before keeps the kinds enabled then
  enabled_[kind] = true;
  set_activity_recording(true);
  if (!delivery_thread_.joinable() && request_ != nullptr) {
    stopping_ = false;
    delivery_thread_ = std::thread([this] { deliver_periodically(); });
  }
  return CUPTI_SUCCESS;
}

CUptiResult ActivityDelivery::disable(CUpti_ActivityKind kind) {
  if (kind <= CUPTI_ACTIVITY_KIND_INVALID || kind >= CUPTI_ACTIVITY_KIND_COUNT) {
    return CUPTI_ERROR_INVALID_KIND;
  }
  std::unique_lock<std::mutex> lock(mutex_);
  drain_log();  // records made while the kind was enabled are still delivered
  enabled_[kind] = false;
  if (!any_enabled()) {
    set_activity_recording(false);
    stop_delivery_thread(lock);
  }
  return CUPTI_SUCCESS;
}

CUptiResult ActivityDelivery::flush() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (request_ == nullptr) {
    return CUPTI_ERROR_INVALID_OPERATION;
  }
  drain_log();
  deliver_pending();
  return CUPTI_SUCCESS;
}

std::size_t ActivityDelivery::take_dropped() {
  std::lock_guard<std::mutex> lock(dropped_mutex_);
  const std::size_t dropped = dropped_;
  dropped_ = 0;
  return dropped;
}

bool ActivityDelivery::enabled(CUpti_ActivityKind kind) const {
  return kind > CUPTI_ACTIVITY_KIND_INVALID && kind < CUPTI_ACTIVITY_KIND_COUNT && enabled_[kind];
}

bool ActivityDelivery::any_enabled() const {
  for (const bool on : enabled_) {
    if (on) {
      return true;
    }
  }
  return false;
}

void ActivityDelivery::drain_log() {
  for (Activity& activity : take_activities()) {
    const CUpti_ActivityKind kind =
        record_kind(activity, enabled(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
    if (enabled(kind)) {
      pending_.emplace_back(std::move(activity), kind);
    }
  }
}

void ActivityDelivery::deliver_pending() {
  std::size_t next = 0;
  while (next < pending_.size()) {
    std::uint8_t* buffer = nullptr;
    std::size_t size = 0;
    std::size_t max_records = 0;
    request_(&buffer, &size, &max_records);
    if (buffer == nullptr || size == 0) {
      // Declined: CUPTI drops what it cannot store and counts it.
      std::lock_guard<std::mutex> lock(dropped_mutex_);
      dropped_ += pending_.size() - next;
      next = pending_.size();
      break;
    }
    std::size_t valid = 0;
    std::size_t records = 0;
    while (next < pending_.size() && (max_records == 0 || records < max_records)) {
      const auto& [activity, kind] = pending_[next];
      const std::size_t bytes = record_bytes(kind);
      if (valid + bytes > size) {
        break;
      }
      write_record(activity, kind, buffer + valid);
      valid += bytes;
      ++records;
      ++next;
    }
    if (records == 0) {
      std::lock_guard<std::mutex> lock(dropped_mutex_);
      ++dropped_;  // a buffer too small for even this record
      ++next;
    }
    complete_(nullptr, 0, buffer, size, valid);
  }
  pending_.clear();
}

void ActivityDelivery::deliver_periodically() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopping_) {
    wake_.wait_for(lock, kDeliveryPeriod, [this] { return stopping_; });
    drain_log();
    deliver_pending();
  }
}

void ActivityDelivery::stop_delivery_thread(std::unique_lock<std::mutex>& lock) {
  if (!delivery_thread_.joinable()) {
    return;
  }
  stopping_ = true;
  wake_.notify_all();
  std::thread thread = std::move(delivery_thread_);
  lock.unlock();  // it takes mutex_ once more on its way out
  thread.join();
  lock.lock();
}

}  // namespace h2d::sim::cupti
