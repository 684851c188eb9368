#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace h2d {

// GPU activity as CUPTI reports it, in our own plain types, so the code that reads it (trace
// findings, the Chrome trace writer) is pure and can be tested with synthetic records.

enum class ActivityKind {
  memcpy,
  memset,
  kernel,
  api_call,  // a CUDA runtime call on a host thread (the call that queued a copy, a synchronize)
};

// Where a copy read or wrote: what the driver says, not what the code believed it allocated.
enum class MemoryKind { unknown, pageable, pinned, device, array, managed };

enum class CopyKind { unknown, h2d, d2h, d2d, h2h, other };

std::string_view to_string(ActivityKind kind);
std::string_view to_string(MemoryKind kind);
std::string_view to_string(CopyKind kind);

struct ActivityRecord {
  ActivityKind kind = ActivityKind::memcpy;
  std::uint64_t start_ns = 0;  // CUPTI's clock, the same as the host ranges of a CUPTI trace
  std::uint64_t end_ns = 0;
  std::uint32_t device = 0;       // GPU activity: CUDA device ordinal
  std::uint32_t stream = 0;       // GPU activity: CUPTI's stream id
  std::uint32_t correlation = 0;  // links a GPU activity to the (driver) call that queued it
  std::uint32_t runtime_correlation = 0;  // memcpy: the runtime call that queued it (0: unknown)
  std::uint64_t bytes = 0;                // memcpy, memset
  CopyKind copy = CopyKind::unknown;
  MemoryKind source = MemoryKind::unknown;
  MemoryKind destination = MemoryKind::unknown;
  std::string name;          // kernel name, or runtime function name
  std::uint32_t thread = 0;  // api_call: the OS thread that made the call
};

// A CUDA call (its name as CUPTI gives it, version suffix removed) that neither queues GPU work
// nor waits for it: queries (cudaEventQuery, cuStreamQuery), error and current-device
// bookkeeping, pointer attributes, event arithmetic. A trace keeps no such call, and a loop that
// polls an event makes millions of them, so they are dropped as soon as CUPTI hands them over.
bool is_bookkeeping_call(std::string_view name);

// The host end of a host<->device copy (source of h2d, destination of d2h); unknown otherwise.
MemoryKind host_side(const ActivityRecord& copy);

// Finds the call that queued a GPU activity: the runtime call (cudaMemcpyAsync) when it was
// recorded, else the driver call (cuMemcpyHtoDAsync). Holds pointers into `activity`.
class CallIndex {
 public:
  explicit CallIndex(const std::vector<ActivityRecord>& activity);
  const ActivityRecord* queued_by(const ActivityRecord& work) const;

 private:
  std::unordered_map<std::uint32_t, const ActivityRecord*> calls_;
};

}  // namespace h2d
