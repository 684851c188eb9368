#pragma once

// The pseudo-random fill pattern and the checksum that verifies it, written once for both host
// and device so a buffer filled on one side can be checked on the other. Pure: no CUDA calls.

#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__CUDACC__)
#define H2D_HOST_DEVICE __host__ __device__
#else
#define H2D_HOST_DEVICE
#endif

namespace h2d {

// splitmix64: a cheap, well-mixed 64-bit value for word `index` of a pattern with `seed`.
H2D_HOST_DEVICE inline std::uint64_t pattern_word(std::uint64_t seed, std::uint64_t index) {
  std::uint64_t z = seed + (index + 1) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// One word's contribution to a checksum. Mixing in the position makes swapped or shifted data
// change the sum; summing (mod 2^64) makes the order of a parallel reduction irrelevant.
H2D_HOST_DEVICE inline std::uint64_t checksum_term(std::uint64_t word, std::uint64_t index) {
  return pattern_word(word, index);
}

// The little-endian word at `index` of a buffer of `bytes` bytes, zero-padded past the end.
H2D_HOST_DEVICE inline std::uint64_t load_word(const unsigned char* data, std::size_t bytes,
                                               std::size_t index) {
  std::uint64_t word = 0;
  const std::size_t first = index * 8;
  if (first + 8 <= bytes) {
    memcpy(&word, data + first, 8);  // a full word: one (possibly unaligned) load
    return word;
  }
  for (std::size_t byte = 0; byte < 8 && first + byte < bytes; ++byte) {
    word |= static_cast<std::uint64_t>(data[first + byte]) << (8 * byte);
  }
  return word;
}

H2D_HOST_DEVICE inline std::size_t word_count(std::size_t bytes) {
  return (bytes + 7) / 8;
}

}  // namespace h2d
