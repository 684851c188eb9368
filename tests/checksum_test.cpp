#include "harness/core/checksum.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "harness/core/pattern.hpp"

namespace h2d {
namespace {

TEST(Checksum, FilledBufferMatchesTheExpectedChecksum) {
  for (std::size_t bytes : {std::size_t{1}, std::size_t{7}, std::size_t{8}, std::size_t{13},
                            std::size_t{4096}, std::size_t{3} << 20}) {
    std::vector<unsigned char> buffer(bytes);
    fill_pattern(buffer.data(), bytes, 42);
    EXPECT_EQ(host_checksum(buffer.data(), bytes), expected_checksum(bytes, 42)) << bytes;
  }
}

TEST(Checksum, LargeBuffersTakeTheMultithreadedPathConsistently) {
  const std::size_t bytes = (std::size_t{64} << 20) + 5;  // several threads, odd tail
  std::vector<unsigned char> buffer(bytes);
  fill_pattern(buffer.data(), bytes, 7);
  EXPECT_EQ(host_checksum(buffer.data(), bytes), expected_checksum(bytes, 7));
}

TEST(Checksum, DetectsZerosFlipsAndSwaps) {
  const std::size_t bytes = 1024;
  std::vector<unsigned char> buffer(bytes);
  fill_pattern(buffer.data(), bytes, 1);
  const std::uint64_t good = host_checksum(buffer.data(), bytes);

  std::vector<unsigned char> zeros(bytes, 0);
  EXPECT_NE(host_checksum(zeros.data(), bytes), good);

  auto flipped = buffer;
  flipped[500] ^= 0x01;
  EXPECT_NE(host_checksum(flipped.data(), bytes), good);

  auto swapped = buffer;
  std::swap_ranges(swapped.begin(), swapped.begin() + 8, swapped.begin() + 8);
  EXPECT_NE(host_checksum(swapped.data(), bytes), good);

  EXPECT_NE(expected_checksum(bytes, 2), good);  // another seed is another pattern
}

TEST(Checksum, PatternIsNotTrivial) {
  EXPECT_NE(pattern_word(0, 0), 0u);
  EXPECT_NE(pattern_word(0, 0), pattern_word(0, 1));
  EXPECT_NE(pattern_word(0, 0), pattern_word(1, 0));
}

}  // namespace
}  // namespace h2d
