#include "harness/topology/link_annotation.hpp"

#include <gtest/gtest.h>

#include "tests/topology_fixture.hpp"

namespace h2d {
namespace {

TEST(LinkAnnotation, GpusComeFromTheCaseName) {
  EXPECT_EQ(case_gpus("h2d/memory/gpu=2/dir=h2d/bytes=64MiB", {0}), (std::vector<int>{2}));
  EXPECT_EQ(case_gpus("multi/h2d_concurrent/gpus=0,1,2/set=first/bytes=64MiB", {}),
            (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(case_gpus("h2d/memory/dir=h2d/kind=pinned/bytes=4KiB", {1, 2}), (std::vector<int>{1}));
  EXPECT_TRUE(case_gpus("h2d/memory/dir=h2d", {}).empty());
  EXPECT_THROW(case_gpus("multi/x/gpus=0,a", {0}), std::invalid_argument);
  EXPECT_THROW(case_gpus("multi/x/gpus=0,,1", {0}), std::invalid_argument);
}

TEST(LinkAnnotation, OnlyFamiliesDeclaredLinkBoundAreAnnotated) {
  EXPECT_TRUE(declared_family("h2d/memory").link_bound);
  EXPECT_TRUE(declared_family("multi/scatter").link_bound);
  EXPECT_FALSE(declared_family("host/memcpy").link_bound);
  EXPECT_FALSE(declared_family("h2d/pin_cost").link_bound);  // a pinning cost, not link traffic
  EXPECT_EQ(find_declared_family("h2dx/memory"), nullptr);
}

nlohmann::json entry(const std::string& run_name, double gb_per_s) {
  return {{"name", run_name},
          {"run_name", run_name},
          {"run_type", "iteration"},
          {"GB_per_s", gb_per_s}};
}

TEST(LinkAnnotation, EveryBandwidthCounterGetsItsShareOfTheLink) {
  const Topology t = testing::load_fixture_with_cuda("six_gpu_gen3_two_switches.xml");
  const double x16 = link_ceiling({3, 16}, 256).payload_gb_per_s;
  const double x8 = link_ceiling({3, 8}, 256).payload_gb_per_s;
  nlohmann::json report = {{"benchmarks", nlohmann::json::array()}};
  auto& list = report["benchmarks"];
  list.push_back(entry("h2d/memory/dir=h2d/kind=pinned/mode=async/bytes=64MiB", 12.0));  // 0
  nlohmann::json mean = entry("h2d/memory/dir=h2d/kind=pinned/mode=async/bytes=64MiB", 12.5);
  mean["name"] = "h2d/memory/dir=h2d/kind=pinned/mode=async/bytes=64MiB_mean";
  mean["run_type"] = "aggregate";
  mean["aggregate_name"] = "mean";
  list.push_back(mean);  // 1
  nlohmann::json cv = mean;
  cv["aggregate_name"] = "cv";
  cv["GB_per_s"] = 0.01;
  list.push_back(cv);  // 2
  nlohmann::json concurrent = entry("multi/h2d_concurrent/gpus=0,1,2/set=first/bytes=64MiB", 13.0);
  concurrent["gpu1_GB_per_s"] = 4.5;
  concurrent["sum_gpu_GB_per_s"] = 14.0;
  concurrent["window_us"] = 1000.0;
  list.push_back(concurrent);                                       // 3
  list.push_back(entry("host/memcpy/threads=1/bytes=64MiB", 9.0));  // 4
  nlohmann::json failed = entry("h2d/memory/gpu=1/dir=h2d/bytes=64MiB", 1.0);
  failed["error_occurred"] = true;
  list.push_back(failed);  // 5
  nlohmann::json own = entry("multi/numa/gpu=0/node=0/bytes=64MiB", 10.0);
  own["link_pct"] = 50.0;
  list.push_back(own);                                                             // 6
  list.push_back(entry("h2d/memory/gpu=4/dir=h2d/bytes=64MiB", 6.0));              // 7: the x8 GPU
  list.push_back(entry("multi/scatter/gpus=0,3/route=direct/batch=64MiB", 20.0));  // 8
  list.push_back(entry("h2d/other/gpu=all/bytes=64MiB", 5.0));                     // 9
  list.push_back(entry("h2d/memory/gpu=9/dir=h2d/bytes=64MiB", 5.0));       // 10: no such GPU
  list.push_back(entry("h2d/pin_cost/how=malloc_host/bytes=64MiB", 40.0));  // 11: pinning speed

  list[0]["d2h_GB_per_s"] = 11.0;
  EXPECT_EQ(annotate_link_pct(report, t, {0}), 8u);
  EXPECT_NEAR(list[0]["d2h_link_pct"].get<double>(), 100 * 11.0 / x16, 1e-9);
  EXPECT_NEAR(list[3]["sum_gpu_link_pct"].get<double>(), 100 * 14.0 / x16, 1e-9);
  EXPECT_FALSE(list[3].contains("window_link_pct"));
  EXPECT_NEAR(list[0]["link_pct"].get<double>(), 100 * 12.0 / x16, 1e-9);
  EXPECT_NEAR(list[1]["link_pct"].get<double>(), 100 * 12.5 / x16, 1e-9);
  EXPECT_FALSE(list[2].contains("link_pct"));
  EXPECT_NEAR(list[3]["link_pct"].get<double>(), 100 * 13.0 / x16, 1e-9);  // one shared uplink
  EXPECT_NEAR(list[3]["gpu1_link_pct"].get<double>(), 100 * 4.5 / x16, 1e-9);
  EXPECT_FALSE(list[4].contains("link_pct"));
  EXPECT_FALSE(list[5].contains("link_pct"));
  EXPECT_EQ(list[6]["link_pct"], 50.0);
  EXPECT_NEAR(list[7]["link_pct"].get<double>(), 100 * 6.0 / x8, 1e-9);
  EXPECT_NEAR(list[8]["link_pct"].get<double>(), 100 * 20.0 / (2 * x16), 1e-9);  // two switches
  EXPECT_FALSE(list[9].contains("link_pct"));
  EXPECT_FALSE(list[11].contains("link_pct"));
  EXPECT_FALSE(list[10].contains("link_pct"));
}

// Both directions at once: their sum against twice one direction's ceiling (PCIe is full duplex),
// each direction's own figure (and each GPU's copies back) against one.
TEST(LinkAnnotation, BothDirectionsAtOnceHaveTwiceTheCeilingTogether) {
  const Topology t = testing::load_fixture_with_cuda("six_gpu_gen3_two_switches.xml");
  const double x16 = ceiling_for_gpus(t, {0});
  ASSERT_GT(x16, 0);
  nlohmann::json report = {{"benchmarks", nlohmann::json::array()}};
  auto& list = report["benchmarks"];
  nlohmann::json memory = entry("h2d/memory/dir=both/kind=pinned/mode=async/bytes=64MiB", 20.0);
  memory["h2d_both_GB_per_s"] = 9.0;
  list.push_back(memory);
  nlohmann::json concurrent =
      entry("multi/h2d_concurrent/gpus=0/set=first/dir=both/bytes=64MiB", 18.0);
  concurrent["gpu0_d2h_GB_per_s"] = 8.0;
  concurrent["sum_gpu_GB_per_s"] = 19.0;
  list.push_back(concurrent);
  annotate_link_pct(report, t, {0});
  EXPECT_NEAR(list[0]["link_pct"].get<double>(), 100 * 20.0 / (2 * x16), 1e-9);
  EXPECT_NEAR(list[0]["h2d_both_link_pct"].get<double>(), 100 * 9.0 / x16, 1e-9);
  EXPECT_NEAR(list[1]["link_pct"].get<double>(), 100 * 18.0 / (2 * x16), 1e-9);
  EXPECT_NEAR(list[1]["sum_gpu_link_pct"].get<double>(), 100 * 19.0 / (2 * x16), 1e-9);
  EXPECT_NEAR(list[1]["gpu0_d2h_link_pct"].get<double>(), 100 * 8.0 / x16, 1e-9);
}

TEST(LinkAnnotation, NothingWithoutTheGpusInTheTopology) {
  const Topology t = testing::load_fixture("six_gpu_gen3_two_switches.xml");  // no CUDA attached
  nlohmann::json report = {{"benchmarks", {entry("h2d/memory/dir=h2d/bytes=64MiB", 12.0)}}};
  EXPECT_EQ(annotate_link_pct(report, t, {0}), 0u);
  EXPECT_EQ(ceiling_for_gpus(t, {0}), 0.0);
  nlohmann::json not_a_report = {{"context", {}}};
  EXPECT_EQ(annotate_link_pct(not_a_report, t, {0}), 0u);
}

}  // namespace
}  // namespace h2d
