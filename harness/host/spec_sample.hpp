#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "harness/core/cancellation.hpp"
#include "harness/core/sample_spec.hpp"

namespace h2d {

// Writes sample `id` of a --sample spec: member m (its shape drawn for this sample, draw_shape)
// at places[m] as pattern bytes (harness/core/pattern.hpp), then zeros up to rooms[m], as a padding
// collate leaves it. The same bytes for the same (seed, id), so batches can be checked.
//
// As produce_tile, the pass repeats until the calling thread has spent `cpu_us` of CPU time (at
// least one pass): the per-sample cost of loading and augmenting. False when `cancel` fired
// between passes.
bool produce_spec_sample(const std::vector<MemberSpec>& members,
                         const std::vector<std::byte*>& places,
                         const std::vector<std::size_t>& rooms, std::uint64_t seed,
                         std::uint64_t id, double cpu_us, const Cancellation& cancel);

}  // namespace h2d
