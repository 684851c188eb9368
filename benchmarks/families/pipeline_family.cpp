// pipeline/train and pipeline/predict: a data loader feeding a GPU step, end to end. Workers
// produce and collate samples, an optional pin stage, copies on a copy stream, a busy kernel as
// the step on a compute stream (predict also copies outputs back and checks them), ordered with
// events. The verdict says what limits the loop: the CPU workers, the bus, or the GPU step.
// decode=gpu: JPEG bytes cross and nvJPEG decodes them on the device (GpuStepEngine).

#include <map>
#include <string>
#include <vector>

#include "harness/cuda/scoped_device.hpp"
#include "harness/pipeline/gpu/gpu_step_engine.hpp"
#include "harness/pipeline/pipeline_case.hpp"
#include "harness/pipeline/pipeline_sweep.hpp"
#include "harness/suite/case_builder.hpp"
#include "harness/suite/family.hpp"

namespace h2d {
namespace {

void run_gpu_pipeline_case(const PipelineConfig& config, int device, benchmark::State& state,
                           const CaseContext& context) {
  PipelineConfig run = config;
  run.watchdog = context.pipeline_watchdog;
  ScopedDevice on(device);
  GpuStepEngine engine(device, run);
  run_pipeline_case(run, engine, /*host_only=*/false, state, context);
}

std::vector<BenchmarkCase> loop_cases(const RunPlan& plan, LoopKind loop) {
  const std::string family = loop == LoopKind::train ? "pipeline/train" : "pipeline/predict";
  std::vector<BenchmarkCase> cases;
  for (const DeviceInfo& gpu : plan.devices) {
    for (const PipelineConfig& config :
         pipeline_sweep(plan.preset, loop, /*host_only=*/false, plan.sample)) {
      CaseName name = case_name_on(family, plan, gpu);
      add_pipeline_keys(name, config, /*with_loop=*/false);
      std::map<std::string, double> params = pipeline_params(config);
      params["gpu"] = gpu.ordinal;
      cases.push_back(
          make_case(name, std::move(params), run_gpu_pipeline_case, config, gpu.ordinal));
    }
  }
  return cases;
}

[[maybe_unused]] const bool registered_train = register_family({
    "pipeline/train",
    "data-loader train loop: workers, pin stage, prefetch, copy and compute streams; verdict "
    "cpu/bus/gpu",
    /*needs_gpu=*/true,
    [](const RunPlan& plan) { return loop_cases(plan, LoopKind::train); },
    SampleUse::taken,
});

[[maybe_unused]] const bool registered_predict = register_family({
    "pipeline/predict",
    "data-loader predict loop: as train, plus outputs copied back to pinned memory and checked",
    /*needs_gpu=*/true,
    [](const RunPlan& plan) { return loop_cases(plan, LoopKind::predict); },
    SampleUse::taken,
});

}  // namespace
}  // namespace h2d
