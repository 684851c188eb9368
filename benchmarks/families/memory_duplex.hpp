#pragma once

#include <benchmark/benchmark.h>

#include <cstddef>

#include "harness/cuda/host_memory.hpp"
#include "harness/measure/case_context.hpp"

namespace h2d {

// h2d/memory dir=both: host-to-device and device-to-host at once, as a predict loop (batch in,
// results out) or host offload runs them. Each direction is timed with the other running on its
// own stream at twice the bytes (nvbandwidth's host_to_device_bidirectional_memcpy_ce and its
// device_to_host twin), and each alone as the yardstick of the same case. Counters:
// h2d_both_GB_per_s, d2h_both_GB_per_s (each under the other), GB_per_s (their sum),
// h2d_alone_GB_per_s, d2h_alone_GB_per_s, duplex_pct (the sum over the two alone), copy_engines
// (with one the directions take turns).
struct DuplexCase {
  int device = 0;
  int copy_engines = 0;
  HostKind kind = HostKind::pinned;  // page-locked kinds that receive copies: pinned, registered
  std::size_t bytes = 0;             // of each timed copy
};

// The largest timed copy: each direction's buffers hold twice it, four in all page-locked.
inline constexpr std::size_t kMostDuplexBytes = std::size_t{256} << 20;

// Loops one case measures under the stopping rule: both directions together, each alone.
inline constexpr std::size_t kDuplexTimedLoops = 4;

void run_duplex_case(const DuplexCase& c, benchmark::State& state, const CaseContext& context);

}  // namespace h2d
