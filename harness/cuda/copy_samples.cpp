#include "harness/cuda/copy_samples.hpp"

#include "harness/core/byte_size.hpp"
#include "harness/core/statistics.hpp"
#include "harness/measure/counters.hpp"

namespace h2d {

void CopySamples::add(const CopyTiming& timing) {
  seconds_.push_back(timing.seconds);
  host_block_seconds_.push_back(timing.host_block_seconds);
}

double CopySamples::median_gb_per_s() const {
  return gb_per_s(static_cast<double>(bytes_) * copies_, summarize(seconds_).median);
}

void CopySamples::write_counters(benchmark::State& state) const {
  if (seconds_.empty()) {
    return;
  }
  std::vector<double> bandwidth;
  for (double s : seconds_) {
    bandwidth.push_back(gb_per_s(static_cast<double>(bytes_) * copies_, s));
  }
  const SampleStats rate = summarize(bandwidth);
  set_counter(state, "GB_per_s", rate.median);
  set_counter(state, "cv_pct", rate.cv * 100);
  set_counter(state, "latency_us", summarize(seconds_).median / copies_ * 1e6);
  set_counter(state, "host_block_us", summarize(host_block_seconds_).median / copies_ * 1e6);
  set_counter(state, "bytes", static_cast<double>(bytes_));
  set_counter(state, "copies_per_measurement", copies_);
}

}  // namespace h2d
