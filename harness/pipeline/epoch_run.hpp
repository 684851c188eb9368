#pragma once

#include <cstdint>
#include <vector>

#include "harness/core/host_block.hpp"
#include "harness/pipeline/pipeline.hpp"

namespace h2d {

// One epoch of a Pipeline: its queues, slot pools, threads and watchdog, built fresh on the
// Pipeline's slots (`pageable`, `ring`) and torn down before it returns, so an epoch that was
// cancelled leaves nothing behind. Sample ids start at `first_sample`. `processes`: the worker
// processes and their shared memory (worker=process), else null. At `deadline` the epoch stops
// (out_of_time).
EpochResult run_pipeline_epoch(const PipelineConfig& config, StepEngine& engine,
                               const PipelineHooks& hooks, std::vector<HostBlock>& pageable,
                               std::vector<HostBlock>& ring, ProcessLoader* processes,
                               std::uint64_t first_sample, EpochDeadline deadline);

}  // namespace h2d
