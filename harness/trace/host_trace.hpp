#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "harness/trace/nvtx.hpp"

namespace h2d {

// The in-process timeline of NvtxRange. While a HostTraceSession is alive, every NvtxRange and
// every nvtx_name_this_thread is recorded with its OS thread and a timestamp, so `run --trace` can
// write a timeline where Nsight Systems is not installed and no NVTX tool is attached.

// One closed range.
struct HostRange {
  std::string name;
  NvtxCategory category = NvtxCategory::setup;
  std::uint64_t bytes = 0;     // the payload (0: none)
  std::uint32_t thread = 0;    // OS thread id (gettid), as nvtxNameOsThread uses
  std::uint64_t begin_ns = 0;  // on the session's clock
  std::uint64_t end_ns = 0;
  int depth = 0;          // 0 for the outermost range open on its thread
  std::string case_name;  // the bench_case range open on the same thread (itself for a case)
};

// What a session recorded.
struct HostTimeline {
  std::vector<HostRange> ranges;                      // in the order they closed
  std::map<std::uint32_t, std::string> thread_names;  // every thread named in this process
  std::size_t unclosed = 0;                           // ranges still open at stop()
};

// Nanoseconds on some monotonic clock. The default is the steady clock; a CUPTI session passes
// CUPTI's clock so host ranges and GPU activity share one time line.
using TraceClock = std::uint64_t (*)();
std::uint64_t steady_clock_ns();

// Records NvtxRange while alive. One at a time: a second concurrent session throws
// std::logic_error. Threads may push and pop concurrently; stop() takes what was recorded.
class HostTraceSession {
 public:
  explicit HostTraceSession(TraceClock clock = steady_clock_ns);
  HostTraceSession(const HostTraceSession&) = delete;
  HostTraceSession& operator=(const HostTraceSession&) = delete;
  ~HostTraceSession();

  HostTimeline stop();

 private:
  bool stopped_ = false;
};

// The hooks NvtxRange and nvtx_name_this_thread call: one atomic load when no session is active.
void host_trace_push(NvtxCategory category, const std::string& name, std::uint64_t bytes);
void host_trace_pop();
void host_trace_name_thread(std::uint32_t thread, const std::string& name);

// The calling thread's OS id (gettid).
std::uint32_t current_thread_id();

}  // namespace h2d
