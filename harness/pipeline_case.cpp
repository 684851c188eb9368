#include "harness/pipeline_case.hpp"

#include <fmt/format.h>

#include <exception>
#include <vector>

#include "harness/byte_size.hpp"
#include "harness/pipeline.hpp"
#include "harness/pipeline_verdict.hpp"
#include "harness/statistics.hpp"
#include "harness/stop_signal.hpp"
#include "harness/verification.hpp"

namespace h2d {
namespace {

// Sums of the epochs of one case.
struct CaseTotals {
  std::size_t measured = 0;
  double window_s = 0;
  double worker_busy_s = 0;
  double pin_busy_s = 0;
  double copy_s = 0;
  double compute_s = 0;
  double copied_bytes = 0;
  std::size_t verified = 0;
  std::vector<double> host_wait_s;

  void add(const EpochResult& epoch) {
    measured += epoch.measured;
    window_s += epoch.window_s;
    worker_busy_s += epoch.worker_busy_s;
    pin_busy_s += epoch.pin_busy_s;
    copy_s += epoch.copy_s;
    compute_s += epoch.compute_s;
    copied_bytes += static_cast<double>(epoch.copied_bytes);
    verified += epoch.verified;
    host_wait_s.insert(host_wait_s.end(), epoch.host_wait_s.begin(), epoch.host_wait_s.end());
  }
};

// Turns an epoch that did not complete cleanly into the exception case_runner files it under.
void throw_unless_clean(const EpochResult& epoch) {
  switch (epoch.end) {
    case EpochEnd::completed:
      break;
    case EpochEnd::stalled:
      throw PipelineStalled("pipeline stalled: " + epoch.message);
    case EpochEnd::interrupted:
      throw RunInterrupted(epoch.message);
    case EpochEnd::failed:
      std::rethrow_exception(epoch.error);
  }
  if (epoch.checksum_failures > 0 || epoch.lost_batches > 0) {
    throw VerificationError(fmt::format(
        "{} batches with wrong checksums, {} lost or duplicated batches; first: {}",
        epoch.checksum_failures, epoch.lost_batches, epoch.first_failure));
  }
  if (!(epoch.window_s > 0) || epoch.measured == 0) {
    throw std::runtime_error("the epoch measured no batch (too few batches after warm-up)");
  }
}

}  // namespace

void run_pipeline_case(const PipelineConfig& config, StepEngine& engine, bool host_only,
                       benchmark::State& state) {
  Pipeline pipeline(config, engine);
  CaseTotals totals;
  for (auto _ : state) {
    const EpochResult epoch = pipeline.run_epoch();
    throw_unless_clean(epoch);
    state.SetIterationTime(epoch.window_s);
    totals.add(epoch);
  }

  const double window = totals.window_s;
  const StageUtilization load{
      totals.worker_busy_s / (static_cast<double>(config.workers) * window),
      totals.pin_busy_s / window, totals.copy_s / window, totals.compute_s / window,
      config.copy == CopyMode::sync};
  const PipelineVerdict verdict = judge_pipeline(load);
  state.SetLabel((host_only ? "host stand-in, " : "") + verdict.reason);
  state.counters["bound_by"] = static_cast<double>(verdict.bound_by);
  state.counters["samples_per_s"] =
      static_cast<double>(totals.measured * config.batch_size) / window;
  state.counters["gpu_busy_pct"] = load.step * 100;
  state.counters["bus_busy_pct"] = load.bus * 100;
  state.counters["worker_busy_pct"] = load.workers * 100;
  state.counters["pin_busy_pct"] = load.pin * 100;
  state.counters["host_wait_ms_p50"] = percentile(totals.host_wait_s, 50) * 1e3;
  state.counters["host_wait_ms_p99"] = percentile(totals.host_wait_s, 99) * 1e3;
  state.counters["GB_per_s"] = totals.copy_s > 0 ? gb_per_s(totals.copied_bytes, totals.copy_s) : 0;
  state.counters["input_GB_per_s"] = gb_per_s(totals.copied_bytes, window);
  state.counters["verified_batches"] = static_cast<double>(totals.verified);
  state.counters["batch_bytes"] = static_cast<double>(BatchLayout(config).host_bytes());
}

}  // namespace h2d
