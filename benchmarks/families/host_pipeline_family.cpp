// host/pipeline: the data-loader pipeline of pipeline/train and pipeline/predict with a host
// stand-in for the GPU (a copy thread and a compute thread ordered by host events). Same
// orchestration (queues, slot reuse, watchdog), no GPU needed: it runs everywhere, CI included.
// Its numbers describe the host, not a bus: "pinned" slots are pageable here.

#include <vector>

#include "harness/pipeline/host_step_engine.hpp"
#include "harness/pipeline/pipeline_case.hpp"
#include "harness/pipeline/pipeline_sweep.hpp"
#include "harness/suite/case_builder.hpp"
#include "harness/suite/family.hpp"

namespace h2d {
namespace {

void run_host_pipeline_case(const PipelineConfig& config, benchmark::State& state,
                            const CaseContext& context) {
  PipelineConfig run = config;
  run.watchdog = context.pipeline_watchdog;
  HostStepEngine engine(run);
  run_pipeline_case(run, engine, /*host_only=*/true, state, context);
}

std::vector<BenchmarkCase> host_pipeline_cases(const RunPlan& plan) {
  std::vector<BenchmarkCase> cases;
  for (LoopKind loop : {LoopKind::train, LoopKind::predict}) {
    for (const PipelineConfig& config :
         pipeline_sweep(plan.preset, loop, /*host_only=*/true, plan.sample)) {
      CaseName name(declared_family("host/pipeline"));
      cases.push_back(make_case(add_pipeline_keys(name, config, /*with_loop=*/true),
                                pipeline_params(config), run_host_pipeline_case, config));
    }
  }
  return cases;
}

[[maybe_unused]] const bool host_pipeline_registered = register_family({
    "host/pipeline",
    "the data-loader pipeline with a host stand-in for the GPU (orchestration, no GPU needed)",
    /*needs_gpu=*/false,
    host_pipeline_cases,
    SampleUse::taken,
});

}  // namespace
}  // namespace h2d
