#include "harness/core/duration.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace h2d {
namespace {

TEST(Duration, ParsesUnits) {
  EXPECT_DOUBLE_EQ(parse_duration_s("60"), 60);
  EXPECT_DOUBLE_EQ(parse_duration_s("60s"), 60);
  EXPECT_DOUBLE_EQ(parse_duration_s("1.5m"), 90);
  EXPECT_DOUBLE_EQ(parse_duration_s("2h"), 7200);
  EXPECT_DOUBLE_EQ(parse_duration_s("250ms"), 0.25);
  EXPECT_DOUBLE_EQ(parse_duration_s(".5s"), 0.5);
}

TEST(Duration, RejectsWhatIsNotAPositiveDuration) {
  for (const char* bad : {"", "s", "abc", "-1s", "0", "0s", "10x", "1e999", "nan", "5 s", "+3"}) {
    EXPECT_THROW(parse_duration_s(bad), std::invalid_argument) << bad;
  }
  try {
    parse_duration_s("10x");
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("60s"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace h2d
