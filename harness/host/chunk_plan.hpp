#pragma once

#include <cstddef>
#include <vector>

namespace h2d {

// One piece of a transfer split over several streams.
struct Chunk {
  std::size_t index = 0;
  std::size_t offset = 0;  // bytes from the start of the transfer
  std::size_t bytes = 0;
  std::size_t stream = 0;  // which of the streams carries it
};

// Splits `total` bytes into at most `chunks` near-equal, contiguous, non-empty pieces whose offsets
// are multiples of `alignment` (fewer pieces when `total` has fewer aligned units), dealt
// round-robin over `streams` so consecutive chunks can overlap on different streams. Pure.
// Throws std::invalid_argument when any argument is zero.
std::vector<Chunk> plan_chunks(std::size_t total, std::size_t chunks, std::size_t streams,
                               std::size_t alignment = 4096);

// One batch split over `parts` GPUs (multi/scatter): exactly `parts` chunks in 4 KiB units, chunk
// i (stream i) for GPU i, so no share starts at an odd offset. Throws CaseSkipped when the batch
// has fewer 4 KiB units than parts.
std::vector<Chunk> plan_scatter(std::size_t batch, std::size_t parts);

}  // namespace h2d
