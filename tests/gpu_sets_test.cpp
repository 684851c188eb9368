#include "harness/topology/gpu_sets.hpp"

#include <gtest/gtest.h>

#include "tests/topology_fixture.hpp"

namespace h2d {
namespace {

using Sets = std::vector<std::pair<std::string, std::vector<int>>>;

Sets flatten(const std::vector<GpuSet>& sets) {
  Sets flat;
  for (const GpuSet& set : sets) {
    flat.emplace_back(set.kind, set.ordinals);
  }
  return flat;
}

TEST(GpuSets, SixGpuRigAddsTheSecondSwitchAndOnePerSwitch) {
  const Topology t = testing::load_fixture_with_cuda("six_gpu_gen3_two_switches.xml");
  const Sets expected{{"first", {0}},
                      {"first", {0, 1}},
                      {"first", {0, 1, 2}},  // also switch A's group: listed once
                      {"first", {0, 1, 2, 3}},
                      {"first", {0, 1, 2, 3, 4}},
                      {"first", {0, 1, 2, 3, 4, 5}},
                      {"uplink", {3, 4, 5}},
                      {"spread", {0, 3}}};
  EXPECT_EQ(flatten(concurrent_gpu_sets(t, {0, 1, 2, 3, 4, 5})), expected);
}

TEST(GpuSets, OnlySelectedGpusCount) {
  const Topology t = testing::load_fixture_with_cuda("six_gpu_gen3_two_switches.xml");
  // GPUs 0 and 3 sit on different switches: no group has two of them, and spread is {0,3} again.
  EXPECT_EQ(flatten(concurrent_gpu_sets(t, {3, 0})), (Sets{{"first", {3}}, {"first", {0, 3}}}));
  EXPECT_EQ(flatten(concurrent_gpu_sets(t, {4, 5})), (Sets{{"first", {4}}, {"first", {4, 5}}}));
  EXPECT_TRUE(concurrent_gpu_sets(t, {}).empty());
}

TEST(GpuSets, DualSocketServer) {
  const Topology t = testing::load_fixture_with_cuda("dual_socket_eight_gpu_gen4.xml");
  const std::vector<GpuSet> sets = concurrent_gpu_sets(t, {0, 1, 2, 3, 4, 5, 6, 7});
  ASSERT_EQ(sets.size(), 12u);  // 8 prefixes, 3 more switches, one per switch
  EXPECT_EQ(sets[8].ordinals, (std::vector<int>{2, 3}));
  EXPECT_EQ(sets[10].ordinals, (std::vector<int>{6, 7}));
  EXPECT_EQ(sets[11].kind, "spread");
  EXPECT_EQ(sets[11].ordinals, (std::vector<int>{0, 2, 4, 6}));
}

TEST(GpuSets, WithoutTopologyOnlyPrefixes) {
  const Topology none;
  EXPECT_EQ(flatten(concurrent_gpu_sets(none, {0, 1})), (Sets{{"first", {0}}, {"first", {0, 1}}}));
  EXPECT_EQ(ordinal_list({0, 1, 12}), "0,1,12");
}

}  // namespace
}  // namespace h2d
