#include "harness/measure/batch_timing.hpp"

#include "harness/core/stopwatch.hpp"
#include "harness/measure/counters.hpp"
#include "harness/measure/measurement_loop.hpp"

namespace h2d {

SampleSeries time_batches(benchmark::State& state, const StoppingRule& rule,
                          const std::function<void()>& run_batch,
                          const std::function<void(SampleSeries&)>& record) {
  SampleSeries series;
  MeasurementLoop loop(state, rule);
  for (auto _ : loop) {
    const Stopwatch watch;
    run_batch();
    const double seconds = watch.seconds();
    loop.record(seconds);
    series.add("batch", seconds);
    if (record) {
      record(series);
    }
  }
  return series;
}

void write_batch_counters(benchmark::State& state, const SampleSeries& series,
                          std::size_t batch_size) {
  const SampleStats batch = series.stats("batch");
  set_counter(state, "batch_ms", batch.median * 1e3);
  set_counter(state, "cv_pct", batch.cv * 100);
  set_counter(state, "samples_per_s", static_cast<double>(batch_size) / batch.median);
}

}  // namespace h2d
