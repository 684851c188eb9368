#include "harness/pipeline/pipeline_case.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <stdexcept>

#include "harness/core/byte_size.hpp"
#include "harness/core/case_skipped.hpp"
#include "harness/core/statistics.hpp"
#include "harness/core/stop_signal.hpp"
#include "harness/core/verification.hpp"
#include "harness/decode/run_images.hpp"
#include "harness/measure/counters.hpp"
#include "harness/measure/measurement_loop.hpp"
#include "harness/pipeline/epoch_rate.hpp"
#include "harness/pipeline/jpeg_slot.hpp"

namespace h2d {
namespace {

// Turns an epoch that did not complete cleanly into the exception case_runner files it under.
void throw_unless_clean(const EpochResult& epoch) {
  switch (epoch.end) {
    case EpochEnd::completed:
      break;
    case EpochEnd::stalled:
      throw PipelineStalled("pipeline stalled: " + epoch.message);
    case EpochEnd::interrupted:
      throw RunInterrupted(epoch.message);
    case EpochEnd::out_of_time:  // a case's epochs have no deadline: its stopping rule ends it
      throw std::logic_error("a benchmark case's epoch ran out of time: " + epoch.message);
    case EpochEnd::failed:
      std::rethrow_exception(epoch.error);
  }
  if (epoch.checksum_failures > 0 || epoch.lost_batches > 0) {
    throw VerificationError(
        fmt::format("{} batches with wrong checksums, {} lost or duplicated batches; first: {}",
                    epoch.checksum_failures, epoch.lost_batches, epoch.first_failure));
  }
  if (!(epoch.window_s > 0) || epoch.measured == 0) {
    throw std::runtime_error("the epoch measured no batch (too few batches after warm-up)");
  }
}

}  // namespace

StageUtilization stage_utilization(const PipelineConfig& config, const EpochResult& epoch) {
  StageUtilization load;
  load.sync_copies = config.copy == CopyMode::sync;
  load.decoding = config.decode == DecodeMode::cpu;
  load.worker_count = config.workers;
  load.worker_processes = config.worker == WorkerKind::process;
  load.fresh_segments = load.worker_processes && config.shm == ShmMode::fresh;
  const double window = epoch.window_s;
  if (window > 0) {
    load.workers = epoch.worker_busy_s / (static_cast<double>(config.workers) * window);
    load.pin = epoch.pin_busy_s / window;
    load.handoff = epoch.handoff_busy_s / window;
    load.bus = epoch.copy_s / window;
    load.step = epoch.compute_s / window;
  }
  return load;
}

void add_epoch(EpochResult& sum, const EpochResult& epoch) {
  sum.completed += epoch.completed;
  sum.measured += epoch.measured;
  sum.window_s += epoch.window_s;
  sum.longest_gap_s = std::max(sum.longest_gap_s, epoch.longest_gap_s);
  sum.host_wait_s.insert(sum.host_wait_s.end(), epoch.host_wait_s.begin(), epoch.host_wait_s.end());
  sum.worker_busy_s += epoch.worker_busy_s;
  sum.pin_busy_s += epoch.pin_busy_s;
  sum.handoff_busy_s += epoch.handoff_busy_s;
  sum.handoff_s.insert(sum.handoff_s.end(), epoch.handoff_s.begin(), epoch.handoff_s.end());
  sum.copy_s += epoch.copy_s;
  sum.compute_s += epoch.compute_s;
  sum.copied_bytes += epoch.copied_bytes;
  sum.verified += epoch.verified;
  sum.checksum_failures += epoch.checksum_failures;
  sum.lost_batches += epoch.lost_batches;
}

PipelineConfig with_decode_inputs(const PipelineConfig& config, const RunImages& images) {
  PipelineConfig run = config;
  if (run.decode != DecodeMode::none && !run.images) {
    run.images = images.set();
    run.image_dir = images.dir();
  }
  if (run.decode == DecodeMode::gpu && run.images->of_size(run.tile, run.tile).empty()) {
    // nvJPEG decodes whole images and the device has no crop: the tiles must be the images.
    throw CaseSkipped(fmt::format(
        "decode=gpu decodes whole images into {0}x{0} tiles (no crop on the device), and the "
        "image set ({1}) has no {0}x{0} image",
        run.tile, run.images->source));
  }
  return run;
}

void run_pipeline_case(const PipelineConfig& case_config, StepEngine& engine, bool host_only,
                       benchmark::State& state, const CaseContext& context) {
  const PipelineConfig config = with_decode_inputs(case_config, *context.images);
  Pipeline pipeline(config, engine);
  EpochResult sum;
  std::vector<EpochSpan> epochs;
  MeasurementLoop loop(state, context.stopping_rule);
  for (auto _ : loop) {
    const EpochResult epoch = pipeline.run_epoch();
    throw_unless_clean(epoch);
    loop.record(epoch.window_s);
    add_epoch(sum, epoch);
    epochs.push_back({epoch.measured * config.batch_size, epoch.window_s});
  }

  const double window = sum.window_s;
  StageUtilization load = stage_utilization(config, sum);
  load.gpu_decoder = engine.gpu_decoder();
  const PipelineVerdict verdict = judge_pipeline(load);
  std::string label = (host_only ? "host stand-in, " : "") + verdict.reason;
  if (!load.gpu_decoder.empty()) {
    label = "decode on the GPU (" + load.gpu_decoder + "), " + label;
  }
  state.SetLabel(label);
  set_counter(state, "bound_by", static_cast<double>(verdict.bound_by));
  if (config.decode == DecodeMode::cpu) {
    set_counter(state, "workers_to_keep_up", static_cast<double>(verdict.workers_to_keep_up));
  }
  // The median epoch's rate: rel_ci_pct is the interval of the median epoch, so it is this
  // figure's (the busy shares below are of the whole window).
  set_counter(state, "samples_per_s", median_epoch_rate(epochs));
  set_counter(state, "gpu_busy_pct", load.step * 100);
  set_counter(state, "bus_busy_pct", load.bus * 100);
  set_counter(state, "worker_busy_pct", load.workers * 100);
  set_counter(state, "pin_busy_pct", load.pin * 100);
  if (config.worker == WorkerKind::process && !sum.handoff_s.empty()) {
    set_counter(state, "handoff_busy_pct", load.handoff * 100);
    set_counter(state, "handoff_ms_p50", percentile(sum.handoff_s, 50) * 1e3);
    set_counter(state, "handoff_ms_p99", percentile(sum.handoff_s, 99) * 1e3);
  }
  set_counter(state, "host_wait_ms_p50", percentile(sum.host_wait_s, 50) * 1e3);
  set_counter(state, "host_wait_ms_p99", percentile(sum.host_wait_s, 99) * 1e3);
  const auto bytes = static_cast<double>(sum.copied_bytes);
  // decode=gpu: the JPEG bytes cross inside nvJPEG's call, timed with their decode as the step
  // (GpuStepEngine), so no copy time to rate them by: input_GB_per_s says what crossed.
  if (config.decode != DecodeMode::gpu) {
    set_counter(state, "GB_per_s", sum.copy_s > 0 ? gb_per_s(bytes, sum.copy_s) : 0);
  }
  set_counter(state, "input_GB_per_s", gb_per_s(bytes, window));
  set_counter(state, "verified_batches", static_cast<double>(sum.verified));
  set_counter(state, "batch_bytes", static_cast<double>(host_slot_bytes(config)));
  // What crossed per sample: float32 tiles and ids, or with decode=gpu the JPEG bytes and ids.
  if (sum.measured > 0) {
    set_counter(state, "bus_bytes_per_sample",
                bytes / static_cast<double>(sum.measured * config.batch_size));
  }
}

}  // namespace h2d
