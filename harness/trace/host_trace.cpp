#include "harness/trace/host_trace.hpp"

#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <stdexcept>
#include <utility>

namespace h2d {
namespace {

struct TraceState {
  std::atomic<bool> active{false};
  std::atomic<std::uint64_t> generation{0};  // a new value per session, so stale stacks reset
  std::atomic<TraceClock> clock{steady_clock_ns};
  std::atomic<std::int64_t> open_ranges{0};
  std::mutex mutex;
  std::vector<HostRange> closed;                      // guarded by mutex
  std::map<std::uint32_t, std::string> thread_names;  // guarded by mutex; kept across sessions
};

// Never destroyed: threads that outlive main's statics may still name themselves or pop.
TraceState& state() {
  static TraceState* const instance = new TraceState;
  return *instance;
}

// The ranges the calling thread has open in the current session.
struct ThreadStack {
  std::uint64_t generation = 0;
  std::vector<HostRange> open;
};
thread_local ThreadStack stack;

}  // namespace

std::uint64_t steady_clock_ns() {
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                        std::chrono::steady_clock::now().time_since_epoch())
                                        .count());
}

std::uint32_t current_thread_id() {
  return static_cast<std::uint32_t>(syscall(SYS_gettid));
}

HostTraceSession::HostTraceSession(TraceClock clock) {
  TraceState& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.active.load()) {
    throw std::logic_error("a host trace session is already recording");
  }
  s.closed.clear();
  s.open_ranges.store(0);
  s.clock.store(clock != nullptr ? clock : steady_clock_ns);
  s.generation.fetch_add(1);
  s.active.store(true, std::memory_order_release);
}

HostTraceSession::~HostTraceSession() {
  if (!stopped_) {
    stop();
  }
}

HostTimeline HostTraceSession::stop() {
  TraceState& s = state();
  HostTimeline timeline;
  std::lock_guard<std::mutex> lock(s.mutex);
  s.active.store(false, std::memory_order_release);
  timeline.ranges = std::move(s.closed);
  s.closed.clear();
  timeline.thread_names = s.thread_names;
  timeline.unclosed = static_cast<std::size_t>(std::max<std::int64_t>(0, s.open_ranges.load()));
  stopped_ = true;
  return timeline;
}

void host_trace_push(NvtxCategory category, const std::string& name, std::uint64_t bytes) {
  TraceState& s = state();
  if (!s.active.load(std::memory_order_acquire)) {
    return;
  }
  const std::uint64_t generation = s.generation.load(std::memory_order_acquire);
  if (stack.generation != generation) {
    stack.open.clear();
    stack.generation = generation;
  }
  HostRange range;
  range.name = name;
  range.category = category;
  range.bytes = bytes;
  range.thread = current_thread_id();
  range.depth = static_cast<int>(stack.open.size());
  if (category == NvtxCategory::bench_case) {
    range.case_name = name;
  } else if (!stack.open.empty()) {
    range.case_name = stack.open.back().case_name;
  }
  range.begin_ns = s.clock.load(std::memory_order_relaxed)();
  stack.open.push_back(std::move(range));
  s.open_ranges.fetch_add(1, std::memory_order_relaxed);
}

void host_trace_pop() {
  TraceState& s = state();
  if (!s.active.load(std::memory_order_acquire)) {
    return;
  }
  const std::uint64_t generation = s.generation.load(std::memory_order_acquire);
  if (stack.generation != generation || stack.open.empty()) {
    return;  // the range began before this session did
  }
  HostRange range = std::move(stack.open.back());
  stack.open.pop_back();
  range.end_ns = s.clock.load(std::memory_order_relaxed)();
  s.open_ranges.fetch_sub(1, std::memory_order_relaxed);
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.active.load() && s.generation.load() == generation) {
    s.closed.push_back(std::move(range));
  }
}

void host_trace_name_thread(std::uint32_t thread, const std::string& name) {
  TraceState& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.thread_names[thread] = name;
}

}  // namespace h2d
