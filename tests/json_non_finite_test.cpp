#include "harness/json_non_finite.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace h2d {
namespace {

TEST(JsonNonFinite, NonFiniteCountersBecomeNull) {
  const std::string gb = R"({"a": NaN, "b": -Infinity, "c": Infinity, "d": 1.5, "e": -NaN})";
  const nlohmann::json parsed = nlohmann::json::parse(null_non_finite_numbers(gb));
  EXPECT_TRUE(parsed.at("a").is_null());
  EXPECT_TRUE(parsed.at("b").is_null());
  EXPECT_TRUE(parsed.at("c").is_null());
  EXPECT_DOUBLE_EQ(parsed.at("d").get<double>(), 1.5);
  EXPECT_TRUE(parsed.at("e").is_null());
  EXPECT_FALSE(nlohmann::json::accept(gb)) << "Google Benchmark's tokens are not JSON";
}

TEST(JsonNonFinite, StringsAreLeftAlone) {
  const std::string gb = R"({"label": "NaN \" Infinity", "NaN": [NaN]})";
  const nlohmann::json parsed = nlohmann::json::parse(null_non_finite_numbers(gb));
  EXPECT_EQ(parsed.at("label"), "NaN \" Infinity");
  EXPECT_TRUE(parsed.at("NaN").at(0).is_null());
}

}  // namespace
}  // namespace h2d
