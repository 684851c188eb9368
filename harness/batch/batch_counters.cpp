#include "harness/batch/batch_counters.hpp"

#include "harness/cuda/copy_samples.hpp"
#include "harness/measure/counters.hpp"

namespace h2d {

void write_batch_counters(benchmark::State& state, const SampleSeries& series,
                          std::size_t batch_size) {
  const SampleStats batch = series.stats("batch");
  set_counter(state, "batch_ms", batch.median * 1e3);
  set_counter(state, "cv_pct", batch.cv * 100);
  set_counter(state, "samples_per_s", static_cast<double>(batch_size) / batch.median);
}

}  // namespace h2d
