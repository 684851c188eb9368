#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <mutex>
#include <utility>

#include "sim/runtime/clock.hpp"
#include "sim/runtime/runtime_call.hpp"

namespace h2d::sim {
namespace {

struct ActivityLog {
  std::atomic<bool> recording{false};
  std::atomic<std::uint32_t> next_correlation{1};
  std::mutex mutex;
  std::vector<Activity> kept;
};

// Never destroyed: stream workers may still record while the process exits.
ActivityLog& log() {
  static ActivityLog* const instance = new ActivityLog;
  return *instance;
}

std::uint32_t os_thread_id() {
  return static_cast<std::uint32_t>(syscall(SYS_gettid));
}

}  // namespace

void set_activity_recording(bool on) {
  log().recording = on;
}

bool activity_recording() {
  return log().recording;
}

std::vector<Activity> take_activities() {
  std::lock_guard<std::mutex> lock(log().mutex);
  return std::exchange(log().kept, {});
}

void record_activity(Activity activity) {
  if (!activity_recording()) {
    return;
  }
  std::lock_guard<std::mutex> lock(log().mutex);
  log().kept.push_back(std::move(activity));
}

std::uint32_t next_correlation_id() {
  return log().next_correlation++;
}

RuntimeCall::RuntimeCall(const char* name)
    : name_(name), correlation_id_(next_correlation_id()), start_ns_(clock_ns()) {}

RuntimeCall::~RuntimeCall() {
  if (!activity_recording()) {
    return;
  }
  Activity activity;
  activity.type = ActivityType::runtime_call;
  activity.start_ns = start_ns_;
  activity.end_ns = clock_ns();
  activity.device = device_;
  activity.correlation_id = correlation_id_;
  activity.name = name_;
  activity.thread_id = os_thread_id();
  record_activity(std::move(activity));
}

}  // namespace h2d::sim
