#pragma once

#include <benchmark/benchmark.h>

#include <cstddef>

#include "harness/core/sample_series.hpp"

namespace h2d {

// The counters every batch case writes from the per-batch times it added under "batch":
// batch_ms (median), cv_pct (spread of the batch times), samples_per_s (batch_size / median); the
// case's MeasurementLoop writes how well the median is known (rel_ci_pct, measurements).
void write_batch_counters(benchmark::State& state, const SampleSeries& series,
                          std::size_t batch_size);

}  // namespace h2d
