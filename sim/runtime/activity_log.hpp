#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace h2d::sim {
enum class ActivityType { memcpy, memset, kernel, runtime_call };
enum class HostMemory { none, pageable, pinned, device };  // where a copy's end lies
struct Activity {
  ActivityType type = ActivityType::memcpy;
  std::uint64_t start_ns = 0, end_ns = 0;  // sim clock (see clock_ns)
  int device = 0;
  std::uint32_t stream_id = 0;       // a unique id per stream; 1 legacy default stream
  std::uint32_t correlation_id = 0;  // links GPU work to the runtime call that queued it
  std::uint64_t bytes = 0;           // memcpy, memset
  int copy_kind = 0;                 // cudaMemcpyKind resolved: 1 h2d, 2 d2h, 3 d2d, 0 h2h
  HostMemory source = HostMemory::none, destination = HostMemory::none;
  std::string name;             // kernel name or runtime function name ("cudaMemcpyAsync")
  std::uint32_t thread_id = 0;  // runtime_call: OS thread id (gettid)
};
std::uint64_t clock_ns();                 // the sim's clock: steady_clock in ns (CUPTI timestamps)
void set_activity_recording(bool on);     // off by default: nothing is kept
std::vector<Activity> take_activities();  // hands over and clears everything recorded so far
}  // namespace h2d::sim
