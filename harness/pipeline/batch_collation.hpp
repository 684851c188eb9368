#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "harness/core/cancellation.hpp"
#include "harness/pipeline/batch_audit.hpp"
#include "harness/pipeline/pipeline_config.hpp"
#include "harness/pipeline/slot_layout.hpp"

namespace h2d {

class TileDecoder;

// Where one batch lands: each member's region (SlotLayout::members, in order), then the ids'.
// One slot holds them all, or (worker=process shm=fresh) each is its own segment.
using BatchRegions = std::vector<std::byte*>;
// The regions of a batch held whole in `slot`.
BatchRegions slot_regions(const SlotLayout& layout, std::byte* slot);

// A worker's work on one batch, the same whether the worker is a thread or a process: each
// sample decoded by `decoder` (decode=cpu), synthesized as a tile, or as the members of the
// config's sample (sample_us of CPU time each), written at its place in each member's region, and
// its id in the ids' region. False when `cancel` fired.
bool collate_batch(const PipelineConfig& config, const SlotLayout& layout,
                   const SampleIds& sample_ids, std::uint64_t batch, const BatchRegions& regions,
                   TileDecoder* decoder, const Cancellation& cancel);

// The per-sample checksums of a collated batch, which the step's read-back must match: for each
// sample, its members' rooms (padding included) checksummed as one buffer, one member after
// another (SlotLayout::first_word), as the device adds them up member by member.
std::vector<std::uint64_t> sample_checksums(const SlotLayout& layout, const BatchRegions& regions);

}  // namespace h2d
