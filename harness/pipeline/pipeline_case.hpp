#pragma once

#include <benchmark/benchmark.h>

#include <stdexcept>

#include "harness/decode/run_images.hpp"
#include "harness/measure/case_context.hpp"
#include "harness/pipeline/pipeline.hpp"
#include "harness/pipeline/pipeline_config.hpp"
#include "harness/pipeline/pipeline_verdict.hpp"
#include "harness/pipeline/step_engine.hpp"

namespace h2d {

// The watchdog stopped a pipeline case: the message names the stuck stage and the queue depths.
class PipelineStalled : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Each stage's busy share of the measured window of `epoch` (or of several epochs added up with
// add_epoch), for judge_pipeline.
StageUtilization stage_utilization(const PipelineConfig& config, const EpochResult& epoch);
// Adds the measurements of `epoch` to `sum`.
void add_epoch(EpochResult& sum, const EpochResult& epoch);

// `config` ready to run: decode=cpu|gpu gets the run's image set (`images`) unless it has one.
// decode=gpu throws CaseSkipped when the set has no image of tile x tile (nvJPEG decodes whole
// images; the device does not crop). Without nvJPEG, GpuStepEngine's constructor skips it.
PipelineConfig with_decode_inputs(const PipelineConfig& config, const RunImages& images);

// Runs one pipeline case under Google Benchmark: each iteration is one epoch, timed over its
// measured window (manual time). Writes samples_per_s, gpu_busy_pct, bus_busy_pct,
// worker_busy_pct, pin_busy_pct, host_wait_ms_p50/p99, GB_per_s (bus rate while copying),
// input_GB_per_s (what the loop moved per second), verified_batches, and the verdict: counter
// bound_by (0 cpu workers, 1 bus, 2 gpu step) with the reason as the label. A stall throws
// PipelineStalled, Ctrl-C RunInterrupted, wrong or lost data VerificationError. With decode=cpu
// also workers_to_keep_up (see PipelineVerdict); with decode=gpu the label starts "decode on the
// GPU (nvJPEG ...)", GB_per_s and bus_bytes_per_sample count the JPEG bytes and ids that crossed,
// and the bus share is their copy and decode together.
// Measures epochs in a MeasurementLoop under `rule`.
void run_pipeline_case(const PipelineConfig& config, StepEngine& engine, bool host_only,
                       benchmark::State& state, const CaseContext& context);

}  // namespace h2d
