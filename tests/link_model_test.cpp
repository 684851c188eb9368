#include "harness/topology/link_model.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace h2d {
namespace {

TEST(LinkModel, LaneRatesFollowEachGenerationsEncoding) {
  EXPECT_DOUBLE_EQ(lane_gb_per_s(1), 0.25);  // 2.5 GT/s, 8b/10b
  EXPECT_DOUBLE_EQ(lane_gb_per_s(2), 0.5);
  EXPECT_NEAR(lane_gb_per_s(3), 8.0 * 128 / 130 / 8, 1e-12);  // 128b/130b
  EXPECT_NEAR(lane_gb_per_s(4), 16.0 * 128 / 130 / 8, 1e-12);
  EXPECT_NEAR(lane_gb_per_s(5), 32.0 * 128 / 130 / 8, 1e-12);
  EXPECT_NEAR(lane_gb_per_s(6), 64.0 * 242 / 256 / 8, 1e-12);  // PAM4, 242/256 FLIT
  EXPECT_THROW(lane_gb_per_s(0), std::invalid_argument);
  EXPECT_THROW(lane_gb_per_s(7), std::invalid_argument);
}

TEST(LinkModel, X16CeilingsMatchTheReferenceTable) {
  // REFERENCE.md: raw 15.75 / 31.5 / 63.0, payload at MPS 256 ~14.6 / ~29.2 / ~58.5 GB/s.
  const struct {
    int gen;
    double raw;
    double payload;
  } table[] = {{3, 15.75, 14.6}, {4, 31.5, 29.2}, {5, 63.0, 58.5}};
  for (const auto& row : table) {
    const LinkCeiling ceiling = link_ceiling({row.gen, 16}, 256);
    EXPECT_NEAR(ceiling.raw_gb_per_s, row.raw, 0.02) << "gen" << row.gen;
    EXPECT_NEAR(ceiling.payload_gb_per_s, row.payload, 0.06) << "gen" << row.gen;
    EXPECT_EQ(ceiling.max_payload, 256);
  }
  EXPECT_NEAR(raw_gb_per_s({3, 8}), 7.877, 0.001);
  EXPECT_NEAR(raw_gb_per_s({1, 16}), 4.0, 1e-12);
  EXPECT_THROW(raw_gb_per_s({3, 0}), std::invalid_argument);
}

TEST(LinkModel, PayloadEfficiencyByMaxPayloadSize) {
  EXPECT_NEAR(payload_efficiency(3, 128), 0.865, 0.001);
  EXPECT_NEAR(payload_efficiency(3, 256), 0.928, 0.001);
  EXPECT_NEAR(payload_efficiency(4, 512), 0.962, 0.001);
  EXPECT_EQ(tlp_overhead_bytes(5), 20);
  EXPECT_EQ(tlp_overhead_bytes(6), 16);  // FLIT mode: sequence numbers and CRC live in the FLIT
  EXPECT_THROW(payload_efficiency(3, 0), std::invalid_argument);
  EXPECT_GT(link_ceiling({4, 16}, 512).payload_gb_per_s,
            link_ceiling({4, 16}, 128).payload_gb_per_s);
}

TEST(LinkModel, TransferRatesAndGenerations) {
  EXPECT_DOUBLE_EQ(transfer_rate_gt_per_s(3), 8.0);
  EXPECT_EQ(gen_from_transfer_rate(2.5), 1);
  EXPECT_EQ(gen_from_transfer_rate(16.0), 4);
  EXPECT_EQ(gen_from_transfer_rate(64.0), 6);
  EXPECT_EQ(gen_from_transfer_rate(7.0), 0);
  EXPECT_EQ(to_string(PcieLink{3, 16}), "gen3 x16");
  EXPECT_EQ(to_string(PcieLink{3, 0}), "unknown");
}

TEST(LinkModel, HwlocRatesMapBackToTheLinksThatHaveThem) {
  const std::vector<PcieLink> gen3_x16{{3, 16}, {4, 8}, {5, 4}};
  EXPECT_EQ(links_with_raw_rate(15.753846), gen3_x16);
  EXPECT_EQ(links_with_raw_rate(63.015385), (std::vector<PcieLink>{{5, 16}}));
  EXPECT_EQ(links_with_raw_rate(4.0), (std::vector<PcieLink>{{1, 16}, {2, 8}}));
  EXPECT_TRUE(links_with_raw_rate(0).empty());
  EXPECT_TRUE(links_with_raw_rate(5.1).empty());
  const LinkCeiling from_raw = ceiling_from_raw(15.753846, 256);
  EXPECT_NEAR(from_raw.payload_gb_per_s, link_ceiling({3, 16}, 256).payload_gb_per_s, 1e-5);
  EXPECT_FALSE(ceiling_from_raw(0, 256).known());
}

TEST(LinkModel, SharedUplinkCeilings) {
  const double x16 = link_ceiling({3, 16}, 256).payload_gb_per_s;
  const double x8 = link_ceiling({3, 8}, 256).payload_gb_per_s;
  const SharedCeiling three = shared_uplink_ceiling(x16, {x16, x16, x16});
  EXPECT_NEAR(three.aggregate_gb_per_s, x16, 1e-9);
  EXPECT_NEAR(three.per_gpu_gb_per_s, x16 / 3, 1e-9);
  // A wide uplink is limited by the GPUs' own links.
  const SharedCeiling narrow = shared_uplink_ceiling(2 * x16, {x16, x8});
  EXPECT_NEAR(narrow.aggregate_gb_per_s, x16 + x8, 1e-9);
  EXPECT_EQ(shared_uplink_ceiling(x16, {}).aggregate_gb_per_s, 0);
}

TEST(LinkModel, LinkPercentAndNumaNotes) {
  EXPECT_NEAR(link_pct(13.1, 14.61), 89.665, 0.01);
  EXPECT_EQ(link_pct(13.1, 0), 0);
  EXPECT_TRUE(numa_crossing_note(0, 0).empty());
  EXPECT_TRUE(numa_crossing_note(-1, 1).empty());
  const std::string note = numa_crossing_note(0, 1);
  EXPECT_NE(note.find("NUMA node 1"), std::string::npos);
  EXPECT_NE(note.find("GPU on node 0"), std::string::npos);
}

}  // namespace
}  // namespace h2d
