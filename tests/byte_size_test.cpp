#include "harness/core/byte_size.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace h2d {
namespace {

TEST(ByteSize, FormatsExactBinaryUnits) {
  EXPECT_EQ(format_bytes(4096), "4KiB");
  EXPECT_EQ(format_bytes(64u << 20), "64MiB");
  EXPECT_EQ(format_bytes(std::size_t{1} << 30), "1GiB");
  EXPECT_EQ(format_bytes(1536), "1.5KiB");
  EXPECT_EQ(format_bytes(100), "100B");
  EXPECT_EQ(format_bytes(3u << 20), "3MiB");
}

TEST(ByteSize, ParsesUnitsAndPlainBytes) {
  EXPECT_EQ(parse_bytes("4096"), 4096u);
  EXPECT_EQ(parse_bytes("64MiB"), 64u << 20);
  EXPECT_EQ(parse_bytes("64m"), 64u << 20);
  EXPECT_EQ(parse_bytes("1G"), std::size_t{1} << 30);
  EXPECT_EQ(parse_bytes("1.5KiB"), 1536u);
  EXPECT_EQ(parse_bytes("8gb"), std::size_t{8} << 30);
  EXPECT_EQ(parse_bytes("12B"), 12u);
}

TEST(ByteSize, RoundTripsItsOwnFormat) {
  for (std::size_t bytes :
       {std::size_t{1}, std::size_t{4096}, std::size_t{3} << 20, std::size_t{1} << 30}) {
    EXPECT_EQ(parse_bytes(format_bytes(bytes)), bytes);
  }
}

TEST(ByteSize, RejectsWhatIsNotASize) {
  for (const char* bad : {"", "MiB", "-1", "1.2.3", "10XB", "0", "0.5", "1e3", "abc"}) {
    EXPECT_THROW(parse_bytes(bad), std::invalid_argument) << bad;
  }
  try {
    parse_bytes("ten");
    FAIL();
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("64MiB"), std::string::npos) << error.what();
  }
}

TEST(ByteSize, DecimalGigabytesPerSecond) {
  EXPECT_DOUBLE_EQ(gb_per_s(1e9, 1), 1);
  EXPECT_DOUBLE_EQ(gb_per_s(64.0 * (1 << 20), 0.001), 67.108864);
  EXPECT_DOUBLE_EQ(gb_per_s(1, 0), 0);
}

}  // namespace
}  // namespace h2d
