#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "harness/core/cancellation.hpp"
#include "harness/pipeline/batch_audit.hpp"
#include "harness/pipeline/pipeline_config.hpp"

namespace h2d {

class TileDecoder;

// A worker's work on one batch, the same whether the worker is a thread or a process: each
// sample decoded by `decoder` (decode=cpu) or synthesized (sample_us of CPU time), written at
// `images` (batch_size x sample_bytes), and its id at `ids`. False when `cancel` fired.
bool collate_batch(const PipelineConfig& config, const SampleIds& sample_ids, std::uint64_t batch,
                   std::byte* images, std::byte* ids, TileDecoder* decoder,
                   const Cancellation& cancel);

// The per-sample checksums of collated images, which the step's read-back must match.
std::vector<std::uint64_t> sample_checksums(const PipelineConfig& config, const std::byte* images);

}  // namespace h2d
