#pragma once

#include <benchmark/benchmark.h>

#include <cstddef>

#include "harness/measure/case_context.hpp"

namespace h2d {

// h2d/memory kind=managed: a cudaMallocManaged buffer the host filled, prefetched to the device
// with cudaMemPrefetchAsync (each measurement starts with it prefetched back to the host,
// untimed). Host-timed from the call to the stream's completion, as a loader sees it; the data is
// checked on the device afterwards. Skipped where the device cannot take prefetches while the
// host runs (cudaDevAttrConcurrentManagedAccess 0).
struct ManagedCase {
  int device = 0;
  std::size_t bytes = 0;
};

void run_managed_case(const ManagedCase& c, benchmark::State& state, const CaseContext& context);

}  // namespace h2d
