#include "harness/report/primary_metric.hpp"

#include <gtest/gtest.h>

#include "harness/suite/family.hpp"

#include <set>

namespace h2d {
namespace {

auto having(std::set<std::string> metrics) {
  return [metrics](const std::string& m) { return metrics.count(m) > 0; };
}

TEST(PrimaryMetric, TheDeclarationThenFallbacks) {
  const auto pipeline =
      primary_metric(find_declared_family("pipeline/train"), having({"samples_per_s", "GB_per_s"}));
  EXPECT_EQ(pipeline.name, "samples_per_s");
  EXPECT_EQ(pipeline.better, Better::higher);
  EXPECT_EQ(pipeline.unit, "samples/s");
  EXPECT_EQ(primary_metric(find_declared_family("h2d/memory"), having({"GB_per_s"})).unit, "GB/s");
  const auto pin =
      primary_metric(find_declared_family("h2d/pin_cost"), having({"pin_us", "GB_per_s"}));
  EXPECT_EQ(pin.name, "pin_us");
  EXPECT_EQ(pin.better, Better::lower);
  // A family without a declaration: GB_per_s when it has one, else real_time.
  EXPECT_EQ(primary_metric(nullptr, having({"GB_per_s"})).name, "GB_per_s");
  const auto time = primary_metric(nullptr, having({"real_time"}));
  EXPECT_EQ(time.name, "real_time");
  EXPECT_EQ(time.better, Better::lower);
  EXPECT_EQ(time.unit, "us");
  // A declared metric the cases lack (an older report) falls through.
  EXPECT_EQ(primary_metric(find_declared_family("h2d/pin_cost"), having({"GB_per_s"})).name,
            "GB_per_s");
}

// Every family h2dbench registers is declared, and every declaration is a family it has: the
// readers' fallback for old reports covers exactly what runs.
TEST(PrimaryMetric, EveryRegisteredFamilyIsDeclared) {
  std::set<std::string> registered;
  for (const Family& family : registered_families()) {
    registered.insert(family.name);
    const FamilyAxes& declared = declared_family(family.name);
    EXPECT_FALSE(declared.metric.counter.empty()) << family.name;
    EXPECT_FALSE(declared.axes.empty()) << family.name;
  }
  for (const FamilyAxes& declared : declared_families()) {
    EXPECT_EQ(registered.count(declared.family), 1u) << declared.family << " is not registered";
  }
}

TEST(PrimaryMetric, DirectionAndUnitFromTheCounterDeclaration) {
  EXPECT_EQ(describe_metric("pin_us").better, Better::lower);
  EXPECT_EQ(describe_metric("pin_us").unit, "us");
  EXPECT_EQ(describe_metric("batch_ms").better, Better::lower);
  EXPECT_EQ(describe_metric("samples_per_s").better, Better::higher);
  EXPECT_EQ(describe_metric("samples_per_s").unit, "samples/s");
  EXPECT_EQ(describe_metric("gpu3_GB_per_s").unit, "GB/s");
  EXPECT_EQ(describe_metric("real_time").better, Better::lower);
  // Not guessed from the spelling: a name nothing declares has no unit.
  EXPECT_EQ(describe_metric("frames_per_s").unit, "");
}

}  // namespace
}  // namespace h2d
