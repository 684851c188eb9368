// host/pipeline: the data-loader pipeline of pipeline/train and pipeline/predict with a host
// stand-in for the GPU (a copy thread and a compute thread ordered by host events). Same
// orchestration (queues, slot reuse, watchdog), no GPU needed: it runs everywhere, CI included.
// Its numbers describe the host, not a bus: "pinned" slots are pageable here.

#include <vector>

#include "harness/suite/family.hpp"
#include "harness/pipeline/host_step_engine.hpp"
#include "harness/pipeline/pipeline_case.hpp"
#include "harness/pipeline/pipeline_sweep.hpp"
#include "harness/pipeline/watchdog.hpp"

namespace h2d {
namespace {

std::vector<BenchmarkCase> host_pipeline_cases(const RunPlan& plan) {
  std::vector<BenchmarkCase> cases;
  for (LoopKind loop : {LoopKind::train, LoopKind::predict}) {
    for (const PipelineConfig& config : pipeline_sweep(plan.preset, loop, /*host_only=*/true)) {
      BenchmarkCase bench_case;
      bench_case.name = pipeline_case_name("host/pipeline", config, /*with_loop=*/true);
      bench_case.params = pipeline_params(config);
      bench_case.body = [config](benchmark::State& state) {
        PipelineConfig run = config;
        run.watchdog = watchdog_timeout();
        HostStepEngine engine(run);
        run_pipeline_case(run, engine, /*host_only=*/true, state);
      };
      cases.push_back(std::move(bench_case));
    }
  }
  return cases;
}

[[maybe_unused]] const bool registered = register_family({
    "host/pipeline",
    "the data-loader pipeline with a host stand-in for the GPU (orchestration, no GPU needed)",
    /*needs_gpu=*/false,
    host_pipeline_cases,
});

}  // namespace
}  // namespace h2d
