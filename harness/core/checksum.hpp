#pragma once

#include <cstddef>
#include <cstdint>

namespace h2d {

// Host side of harness/core/pattern.hpp, multithreaded for large buffers.
void fill_pattern(void* data, std::size_t bytes, std::uint64_t seed);
// Word i of the buffer counts as word first_word + i: the checksum of a region that continues
// another (a sample's next member), so regions in each other's place do not add up the same.
std::uint64_t host_checksum(const void* data, std::size_t bytes, std::uint64_t first_word = 0);
// The checksum a buffer filled with fill_pattern(seed) has, computed without the buffer.
std::uint64_t expected_checksum(std::size_t bytes, std::uint64_t seed);

}  // namespace h2d
