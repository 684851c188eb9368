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

}  // namespace h2d
