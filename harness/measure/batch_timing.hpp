#pragma once

#include <benchmark/benchmark.h>

#include <cstddef>
#include <functional>

#include "harness/core/sample_series.hpp"
#include "harness/core/stopping_rule.hpp"

namespace h2d {

// The loop of every family that moves whole batches (h2d/batch, h2d/preprocess, h2d/decode,
// host/collate): one measurement is one call of `run_batch`, timed on the host clock from before
// its host work to after its data arrived, and added to the series as "batch"; `record` then adds
// that batch's other figures (the copy's GPU time, the host preparation, ...) to the series. It
// measures until `rule` stops it (a MeasurementLoop); the family verifies its data afterwards.
SampleSeries time_batches(benchmark::State& state, const StoppingRule& rule,
                          const std::function<void()>& run_batch,
                          const std::function<void(SampleSeries&)>& record = {});

// The counters every batch case writes from the per-batch times added under "batch":
// batch_ms (median), cv_pct (spread of the batch times), samples_per_s (batch_size / median); the
// case's MeasurementLoop writes how well the median is known (rel_ci_pct, measurements).
void write_batch_counters(benchmark::State& state, const SampleSeries& series,
                          std::size_t batch_size);

}  // namespace h2d
