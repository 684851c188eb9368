#include "harness/report/report_cases.hpp"

#include <gtest/gtest.h>

#include "harness/report/benchmark_json.hpp"
#include "report_builder.hpp"

namespace h2d {
namespace {

TEST(ReportCases, GathersRepetitionsByRunName) {
  testing::ReportBuilder builder("a");
  builder.add("host/memcpy/threads=1/bytes=1MiB", "GB_per_s", {10, 12, 11}, {{"cv_pct", 2}});
  builder.add("host/memcpy/threads=2/bytes=1MiB", "GB_per_s", {20});
  // GB's aggregates are ignored when iterations exist.
  builder.json()["benchmarks"].push_back({{"name", "host/memcpy/threads=1/bytes=1MiB_mean"},
                                          {"run_name", "host/memcpy/threads=1/bytes=1MiB"},
                                          {"run_type", "aggregate"},
                                          {"aggregate_name", "mean"},
                                          {"repetitions", 3},
                                          {"GB_per_s", 999.0}});
  const auto cases = collect_cases(builder.json());
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_EQ(cases[0].name, "host/memcpy/threads=1/bytes=1MiB");
  EXPECT_EQ(cases[0].parsed.family, "host/memcpy");
  EXPECT_EQ(cases[0].repetitions, 3u);
  EXPECT_DOUBLE_EQ(cases[0].median("GB_per_s"), 11);
  EXPECT_FALSE(cases[0].has("repetition_index"));  // bookkeeping is not a value
  EXPECT_EQ(cases[1].repetitions, 1u);
  EXPECT_EQ(families_of(cases), std::vector<std::string>{"host/memcpy"});
}

TEST(ReportCases, NoiseIsTheLargerOfWithinAndAcrossRepetitions) {
  testing::ReportBuilder builder("a");
  builder.add("x/y/k=1", "GB_per_s", {10, 10, 10}, {{"cv_pct", 3}});
  builder.add("x/y/k=2", "GB_per_s", {8, 10, 12}, {{"cv_pct", 3}});
  builder.add("x/y/k=3", "GB_per_s", {10});
  // One iteration: the run's cv of 0 is not a measurement of noise.
  builder.add("x/y/k=4", "GB_per_s", {10}, {{"cv_pct", 0}, {"iterations", 1}});
  const auto cases = collect_cases(builder.json());
  EXPECT_DOUBLE_EQ(*cases[0].noise_pct("GB_per_s"), 3);
  EXPECT_DOUBLE_EQ(*cases[1].noise_pct("GB_per_s"), 20);
  EXPECT_FALSE(cases[2].noise_pct("GB_per_s").has_value());
  EXPECT_FALSE(cases[3].noise_pct("GB_per_s").has_value());
}

TEST(ReportCases, TimesBecomeMicroseconds) {
  nlohmann::json report{{"benchmarks",
                         {{{"name", "f/a=1"}, {"real_time", 2.0}, {"time_unit", "ms"}},
                          {{"name", "f/a=2"}, {"real_time", 3000.0}, {"time_unit", "ns"}}}}};
  const auto cases = collect_cases(report);
  EXPECT_DOUBLE_EQ(cases[0].median("real_time"), 2000);
  EXPECT_DOUBLE_EQ(cases[1].median("real_time"), 3);
}

TEST(ReportCases, ErrorsAreKeptWithTheirMessage) {
  testing::ReportBuilder builder("a");
  builder.add_error("h2d/memory/kind=pinned/bytes=1GiB", "pinned budget exceeded");
  const auto cases = collect_cases(builder.json());
  ASSERT_EQ(cases.size(), 1u);
  EXPECT_EQ(cases[0].error.value_or(""), "pinned budget exceeded");
  EXPECT_FALSE(cases[0].has("GB_per_s"));
  EXPECT_FALSE(cases[0].find_median("GB_per_s").has_value());
  EXPECT_THROW(cases[0].median("GB_per_s"), std::out_of_range);
}

TEST(ReportCases, AggregatesOnlyReportsUseMedianAndStddev) {
  nlohmann::json report{{"benchmarks", nlohmann::json::array()}};
  for (const auto& [aggregate, value] :
       std::vector<std::pair<std::string, double>>{{"mean", 10.5}, {"median", 10}, {"stddev", 1}}) {
    report["benchmarks"].push_back({{"name", "f/a=1_" + aggregate},
                                    {"run_name", "f/a=1"},
                                    {"run_type", "aggregate"},
                                    {"aggregate_name", aggregate},
                                    {"repetitions", 4},
                                    {"GB_per_s", value}});
  }
  const auto cases = collect_cases(report);
  ASSERT_EQ(cases.size(), 1u);
  EXPECT_TRUE(cases[0].aggregates_only);
  EXPECT_EQ(cases[0].repetitions, 4u);
  EXPECT_DOUBLE_EQ(cases[0].median("GB_per_s"), 10);
  EXPECT_DOUBLE_EQ(cases[0].aggregate_stddev.at("GB_per_s"), 1);
}

TEST(ReportCases, OddlyTypedFieldsAreToleratedNotFatal) {
  const auto report = nlohmann::json::parse(R"({"benchmarks": [
      {"name": 5},
      "not an object",
      {"name": "f/a=1", "run_type": 3, "error_occurred": "yes", "time_unit": 7, "real_time": 2,
       "GB_per_s": 4, "flag": true, "text": "x"},
      {"name": "f/a=2", "error_occurred": true, "error_message": 12},
      {"name": "f/a=3", "run_type": "aggregate", "aggregate_name": null, "repetitions": -1}]})");
  const auto cases = collect_cases(report);
  ASSERT_EQ(cases.size(), 3u);
  EXPECT_DOUBLE_EQ(cases[0].median("GB_per_s"), 4);
  EXPECT_DOUBLE_EQ(cases[0].median("real_time"), 2);
  EXPECT_FALSE(cases[0].has("flag"));
  EXPECT_EQ(cases[1].error.value_or(""), "error (no message)");
  EXPECT_TRUE(cases[2].values.empty());
}

TEST(BenchmarkJson, NonFiniteNumbersBecomeNull) {
  const auto doc = parse_benchmark_json(
      R"({"a": NaN, "b": -Infinity, "c": Infinity, "d": -NaN, "e": "NaN stays text", "f": 1.5})");
  EXPECT_TRUE(doc["a"].is_null());
  EXPECT_TRUE(doc["b"].is_null());
  EXPECT_TRUE(doc["c"].is_null());
  EXPECT_TRUE(doc["d"].is_null());
  EXPECT_EQ(doc["e"], "NaN stays text");
  EXPECT_DOUBLE_EQ(doc["f"].get<double>(), 1.5);
  EXPECT_THROW(parse_benchmark_json("{\"a\": nope}"), nlohmann::json::parse_error);
}

}  // namespace
}  // namespace h2d
