// Pure planning of ML-shaped batches: sizes, layouts, packing offsets, strides.

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <stdexcept>

#include "harness/batch/batch.hpp"

namespace h2d {
namespace {

// Odd sizes, so alignment padding shows: image 3*5*7*4 = 420 bytes, mask 35, ids 24.
const SampleShape kPlanShape{3, 5, 7};
const std::vector<Member> kTrain = sent_members(BatchTask::train);

TEST(BatchPlan, MemberBytesFollowTheSampleShape) {
  const SampleShape tile;  // robosat's 3x512x512
  EXPECT_EQ(to_string(tile), "3x512x512");
  EXPECT_EQ(member_bytes(tile, Member::image), 3u * 512 * 512 * 4);
  EXPECT_EQ(member_bytes(tile, Member::mask), 512u * 512);
  EXPECT_EQ(member_bytes(tile, Member::ids), 24u);
  EXPECT_EQ(member_bytes(kPlanShape, Member::image), 420u);
}

TEST(BatchPlan, TrainSendsEverythingPredictSendsImages) {
  EXPECT_EQ(kTrain, (std::vector<Member>{Member::image, Member::mask, Member::ids}));
  EXPECT_EQ(sent_members(BatchTask::predict), std::vector<Member>{Member::image});
}

TEST(BatchPlan, BatchSizesPerPreset) {
  EXPECT_EQ(batch_sizes(Preset::quick), (std::vector<std::size_t>{1, 16}));
  EXPECT_EQ(batch_sizes(Preset::standard), (std::vector<std::size_t>{1, 4, 16, 64}));
  const auto full = batch_sizes(Preset::full);
  EXPECT_EQ(full.front(), 1u);
  EXPECT_EQ(full.back(), 256u);
  EXPECT_TRUE(std::is_sorted(full.begin(), full.end()));
  EXPECT_EQ(host_batch_sizes(Preset::standard), (std::vector<std::size_t>{1, 16}));
  EXPECT_EQ(host_batch_sizes(Preset::full), full);
}

TEST(BatchPlan, AlignUp) {
  EXPECT_EQ(align_up(0, 256), 0u);
  EXPECT_EQ(align_up(1, 256), 256u);
  EXPECT_EQ(align_up(256, 256), 256u);
  EXPECT_EQ(align_up(257, 256), 512u);
  EXPECT_EQ(align_up(10, 3), 12u);
  EXPECT_THROW(align_up(1, 0), std::invalid_argument);
}

TEST(BatchPlan, SingleLayoutIsOneBufferWithAlignedMembers) {
  const LayoutPlan plan = plan_layout(BatchLayout::single, kPlanShape, kTrain, 2);
  ASSERT_EQ(plan.buffers.size(), 1u);
  const auto& pieces = plan.buffers[0].pieces;
  ASSERT_EQ(pieces.size(), 3u);
  EXPECT_EQ(pieces[0].offset, 0u);
  EXPECT_EQ(pieces[0].bytes, 840u);
  EXPECT_EQ(pieces[1].offset, 1024u);  // 840 rounded up to 256
  EXPECT_EQ(pieces[1].bytes, 70u);
  EXPECT_EQ(pieces[2].offset, 1280u);  // 1094 rounded up
  EXPECT_EQ(pieces[2].bytes, 48u);
  EXPECT_EQ(plan.buffers[0].bytes, 1328u);
  EXPECT_EQ(plan.payload_bytes, 958u);
}

TEST(BatchPlan, TupleLayoutIsOneBufferPerMember) {
  const LayoutPlan plan = plan_layout(BatchLayout::tuple, kPlanShape, kTrain, 4);
  ASSERT_EQ(plan.buffers.size(), 3u);
  EXPECT_EQ(plan.buffers[0].bytes, 4 * 420u);
  EXPECT_EQ(plan.buffers[1].bytes, 4 * 35u);
  EXPECT_EQ(plan.buffers[2].bytes, 4 * 24u);
  EXPECT_EQ(plan.buffers[1].pieces.at(0).member, Member::mask);
}

TEST(BatchPlan, ListLayoutIsOneBufferPerMemberPerSampleInSampleOrder) {
  const LayoutPlan plan = plan_layout(BatchLayout::list, kPlanShape, kTrain, 2);
  ASSERT_EQ(plan.buffers.size(), 6u);
  EXPECT_EQ(plan.buffers[3].pieces.at(0).member, Member::image);
  EXPECT_EQ(plan.buffers[3].pieces.at(0).first_sample, 1u);
  EXPECT_EQ(plan.buffers[5].pieces.at(0).member, Member::ids);
  EXPECT_EQ(plan.buffers[5].bytes, 24u);
}

TEST(BatchPlan, PlacementsCoverEveryMemberOfEverySampleWithoutOverlap) {
  for (BatchLayout layout : all_batch_layouts()) {
    const LayoutPlan plan = plan_layout(layout, kPlanShape, kTrain, 3);
    const std::vector<Placement> places = plan.placements();
    ASSERT_EQ(places.size(), 9u);
    // [begin, end) per buffer must not overlap and must lie inside the buffer.
    std::vector<std::vector<std::pair<std::size_t, std::size_t>>> used(plan.buffers.size());
    for (std::size_t sample = 0; sample < 3; ++sample) {
      for (Member member : kTrain) {
        const Placement& place = places[plan.slot_of(member, sample)];
        const std::size_t end = place.offset + member_bytes(kPlanShape, member);
        ASSERT_LT(place.buffer, plan.buffers.size());
        EXPECT_LE(end, plan.buffers[place.buffer].bytes) << to_string(layout);
        for (const auto& [b, e] : used[place.buffer]) {
          EXPECT_TRUE(end <= b || place.offset >= e) << to_string(layout);
        }
        used[place.buffer].push_back({place.offset, end});
      }
    }
  }
  const LayoutPlan single = plan_layout(BatchLayout::single, kPlanShape, kTrain, 3);
  const Placement mask2 = single.placements()[single.slot_of(Member::mask, 2)];
  EXPECT_EQ(mask2.buffer, 0u);
  EXPECT_EQ(mask2.offset, align_up(3 * 420, 256) + 2 * 35);
}

TEST(BatchPlan, PackingPlacesBuffersOnAlignedOffsets) {
  const LayoutPlan tuple = plan_layout(BatchLayout::tuple, kPlanShape, kTrain, 2);
  const PackPlan pack = plan_packing(tuple);
  EXPECT_EQ(pack.offsets, (std::vector<std::size_t>{0, 1024, 1280}));
  EXPECT_EQ(pack.bytes, 1328u);

  const LayoutPlan list = plan_layout(BatchLayout::list, kPlanShape, kTrain, 16);
  const PackPlan list_pack = plan_packing(list);
  ASSERT_EQ(list_pack.offsets.size(), 48u);
  for (std::size_t b = 0; b < list_pack.offsets.size(); ++b) {
    EXPECT_EQ(list_pack.offsets[b] % kBatchAlignment, 0u);
    if (b > 0) {
      EXPECT_GE(list_pack.offsets[b], list_pack.offsets[b - 1] + list.buffers[b - 1].bytes);
    }
  }
  EXPECT_EQ(list_pack.bytes, list_pack.offsets.back() + 24);
  EXPECT_EQ(plan_packing(list, 64).offsets[1], 448u);  // the alignment is a parameter
}

TEST(BatchPlan, PackedOffsetsAndStrides) {
  const LayoutPlan tuple = plan_layout(BatchLayout::tuple, kPlanShape, kTrain, 4);
  const PackPlan tuple_pack = plan_packing(tuple);
  EXPECT_EQ(packed_offset(tuple, tuple_pack, Member::image, 3), 3 * 420u);
  EXPECT_EQ(packed_offset(tuple, tuple_pack, Member::mask, 1), align_up(4 * 420, 256) + 35);
  EXPECT_EQ(packed_stride(tuple, tuple_pack, Member::image), 420u);

  // list: img0 @0, mask0 @512, ids0 @768, img1 @1024, ...
  const LayoutPlan list = plan_layout(BatchLayout::list, kPlanShape, kTrain, 4);
  const PackPlan list_pack = plan_packing(list);
  EXPECT_EQ(packed_offset(list, list_pack, Member::mask, 0), 512u);
  EXPECT_EQ(packed_offset(list, list_pack, Member::image, 1), 1024u);
  EXPECT_EQ(packed_stride(list, list_pack, Member::image), 1024u);
  EXPECT_EQ(packed_stride(list, list_pack, Member::ids), 1024u);

  const LayoutPlan predict =
      plan_layout(BatchLayout::list, kPlanShape, sent_members(BatchTask::predict), 4);
  EXPECT_EQ(packed_stride(predict, plan_packing(predict), Member::image), 512u);

  const LayoutPlan one = plan_layout(BatchLayout::list, kPlanShape, kTrain, 1);
  EXPECT_EQ(packed_stride(one, plan_packing(one), Member::image), 420u);
}

TEST(BatchPlan, StrideRefusesNonUniformPlacement) {
  const LayoutPlan list = plan_layout(BatchLayout::list, kPlanShape, kTrain, 4);
  PackPlan pack = plan_packing(list);
  for (std::size_t b = 6; b < pack.offsets.size(); ++b) {
    pack.offsets[b] += 256;  // samples 2 and 3 one step further
  }
  EXPECT_THROW(packed_stride(list, pack, Member::image), std::logic_error);
}

TEST(BatchPlan, RejectsEmptyBatchesAndUnknownMembers) {
  EXPECT_THROW(plan_layout(BatchLayout::tuple, kPlanShape, kTrain, 0), std::invalid_argument);
  EXPECT_THROW(plan_layout(BatchLayout::tuple, kPlanShape, {}, 2), std::invalid_argument);
  EXPECT_THROW(plan_layout(BatchLayout::tuple, SampleShape{3, 0, 7}, kTrain, 2),
               std::invalid_argument);
  const LayoutPlan predict =
      plan_layout(BatchLayout::tuple, kPlanShape, sent_members(BatchTask::predict), 2);
  EXPECT_THROW(predict.slot_of(Member::mask, 0), std::out_of_range);
  EXPECT_THROW(predict.slot_of(Member::image, 2), std::out_of_range);
}

TEST(BatchPlan, NamesAreDistinct) {
  std::set<std::string_view> names;
  for (BatchLayout layout : all_batch_layouts()) {
    names.insert(to_string(layout));
  }
  EXPECT_EQ(names.size(), 4u);
  EXPECT_EQ(to_string(BatchTask::predict), "predict");
  EXPECT_EQ(to_string(Member::ids), "ids");
}

}  // namespace
}  // namespace h2d
