#pragma once

#include <benchmark/benchmark.h>

#include <cstddef>
#include <vector>

#include "harness/cuda/copy_timing.hpp"

namespace h2d {

// The measurements of one copy case, turned into the standard counters: GB_per_s (median, decimal),
// latency_us (median time per copy), host_block_us (median time one copy call held the caller),
// cv_pct (spread of the bandwidth samples), bytes, copies_per_measurement.
class CopySamples {
 public:
  CopySamples(std::size_t bytes_per_copy, int copies) : bytes_(bytes_per_copy), copies_(copies) {}

  void add(const CopyTiming& timing);
  bool empty() const { return seconds_.empty(); }
  double median_gb_per_s() const;
  void write_counters(benchmark::State& state) const;

 private:
  std::size_t bytes_;
  int copies_;
  std::vector<double> seconds_;
  std::vector<double> host_block_seconds_;
};

}  // namespace h2d
