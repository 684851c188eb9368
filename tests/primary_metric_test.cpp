#include "harness/report/primary_metric.hpp"

#include <gtest/gtest.h>

#include <set>

namespace h2d {
namespace {

auto having(std::set<std::string> metrics) {
  return [metrics](const std::string& m) { return metrics.count(m) > 0; };
}

TEST(PrimaryMetric, TableThenFallbacks) {
  const auto pipeline = primary_metric("pipeline/train", having({"samples_per_s", "GB_per_s"}));
  EXPECT_EQ(pipeline.name, "samples_per_s");
  EXPECT_EQ(pipeline.better, Better::higher);
  EXPECT_EQ(pipeline.unit, "samples/s");
  EXPECT_EQ(primary_metric("h2d/memory", having({"GB_per_s"})).unit, "GB/s");
  // A family nobody wrote a table line for: GB_per_s when it has one, else real_time.
  EXPECT_EQ(primary_metric("future/family", having({"GB_per_s"})).name, "GB_per_s");
  const auto time = primary_metric("future/family", having({"real_time"}));
  EXPECT_EQ(time.name, "real_time");
  EXPECT_EQ(time.better, Better::lower);
  EXPECT_EQ(time.unit, "us");
  // A table entry whose metric the cases lack falls through.
  EXPECT_EQ(primary_metric("pipeline/x", having({"GB_per_s"})).name, "GB_per_s");
  // "pipeline" alone (no sub-family) still matches the pipeline/ prefix.
  EXPECT_EQ(primary_metric("pipeline", having({"samples_per_s"})).name, "samples_per_s");
}

TEST(PrimaryMetric, DirectionFromName) {
  EXPECT_EQ(describe_metric("pin_ms").better, Better::lower);
  EXPECT_EQ(describe_metric("pin_ms").unit, "ms");
  EXPECT_EQ(describe_metric("latency_us").better, Better::lower);
  EXPECT_EQ(describe_metric("batches_per_s").better, Better::higher);
  EXPECT_EQ(describe_metric("batches_per_s").unit, "batches/s");
  EXPECT_EQ(describe_metric("link_pct").better, Better::higher);
}

}  // namespace
}  // namespace h2d
