#pragma once

#include <cstddef>
#include <cstdint>

#include "harness/core/cancellation.hpp"

namespace h2d {

// Writes sample `id` at `out` as `channels` x `tile` x `tile` float32: 8-bit pixels synthesized
// from the pattern (harness/core/pattern.hpp) and normalized per channel, as a loader decodes and
// normalizes an image tile. The same output for the same (seed, id), so batches can be checked.
//
// The pass repeats until the calling thread has spent `cpu_us` of CPU time (at least one pass):
// the per-sample cost of decoding and augmentation. It is charged in thread CPU time, so more
// workers than cores cost what they cost on a real machine. Returns false when `cancel` fired
// between passes (the sample is then complete but its cost was cut short).
bool produce_tile(std::byte* out, std::uint64_t seed, std::uint64_t id, std::size_t channels,
                  std::size_t tile, double cpu_us, const Cancellation& cancel);

// CPU time the calling thread has used, in seconds.
double thread_cpu_seconds();

}  // namespace h2d
