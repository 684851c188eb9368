#include "harness/batch/batch_counters.hpp"

#include "harness/cuda/copy_samples.hpp"

namespace h2d {

void write_batch_counters(benchmark::State& state, const SampleSeries& series,
                          std::size_t batch_size) {
  const SampleStats batch = series.stats("batch");
  state.counters["batch_ms"] = batch.median * 1e3;
  state.counters["cv_pct"] = batch.cv * 100;
  state.counters["samples_per_s"] = static_cast<double>(batch_size) / batch.median;
}

}  // namespace h2d
