// Where decoded pixels land: each placement starts at its stated offset past a 4 KiB boundary,
// zeroed, and keeps its address when moved (host/decode holds them in a vector).

#include "harness/decode/decoded_pixels.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace h2d {
namespace {

std::uintptr_t past_page(const std::uint8_t* pointer) {
  return reinterpret_cast<std::uintptr_t>(pointer) % 4096;
}

TEST(DecodedPixels, EachPlacementStartsAtItsOffsetPastAPageBoundary) {
  for (const std::size_t bytes : {std::size_t{1}, std::size_t{196608}, std::size_t{786433}}) {
    const DecodedPixels as_malloc(bytes, OutputPlacement::malloc);
    const DecodedPixels as_tensor(bytes, OutputPlacement::aligned64);
    EXPECT_EQ(past_page(as_malloc.data()), 16u) << bytes;
    EXPECT_EQ(past_page(as_tensor.data()), 64u) << bytes;
    EXPECT_EQ(as_malloc.size(), bytes);
    EXPECT_EQ(as_tensor.size(), bytes);
  }
  EXPECT_EQ(page_offset(OutputPlacement::malloc), 16u);
  EXPECT_EQ(page_offset(OutputPlacement::aligned64), 64u);
  EXPECT_EQ(to_string(OutputPlacement::malloc), "malloc");
  EXPECT_EQ(to_string(OutputPlacement::aligned64), "aligned64");
}

TEST(DecodedPixels, StartZeroedAndKeepTheirAddressWhenMoved) {
  DecodedPixels pixels(4096 * 3 + 7);
  EXPECT_TRUE(std::all_of(pixels.data(), pixels.data() + pixels.size(),
                          [](std::uint8_t value) { return value == 0; }));
  pixels.data()[pixels.size() - 1] = 42;  // the last byte is usable
  const std::uint8_t* before = pixels.data();
  std::vector<DecodedPixels> held;
  held.push_back(std::move(pixels));
  held.emplace_back(10);  // may reallocate the vector: the pixels must not move
  EXPECT_EQ(held.front().data(), before);
  EXPECT_EQ(held.front().data()[held.front().size() - 1], 42);
}

}  // namespace
}  // namespace h2d
