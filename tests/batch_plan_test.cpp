// Pure planning of ML-shaped batches: sizes, layouts, packing offsets, strides.

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <stdexcept>

#include "harness/batch/batch.hpp"
#include "tests/batch_test_support.hpp"

namespace h2d {
namespace {

using testing::contents_of;
using testing::kIds;
using testing::kImage;
using testing::kMask;
using testing::plan_of;

TEST(BatchPlan, MemberBytesFollowTheSample) {
  const BatchContents tile = batch_contents(parse_sample("tile"), {0, 1, 2}, 1, Collate::pad, 1);
  EXPECT_EQ(tile.bytes_of(kImage, 0), 3u * 512 * 512 * 4);
  EXPECT_EQ(tile.bytes_of(kMask, 0), 512u * 512);
  EXPECT_EQ(tile.bytes_of(kIds, 0), 24u);
  EXPECT_EQ(contents_of(2).room_of(kImage, 1), 420u);
}

TEST(BatchPlan, TrainSendsEverythingPredictSendsTheFirstMember) {
  const SampleSpec& tile = testing::plan_tile();
  EXPECT_EQ(sent_members(tile, BatchTask::train), (std::vector<std::size_t>{0, 1, 2}));
  EXPECT_EQ(sent_members(tile, BatchTask::predict), std::vector<std::size_t>{0});
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
  const LayoutPlan plan = plan_of(BatchLayout::single, 2);
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
  const LayoutPlan plan = plan_of(BatchLayout::tuple, 4);
  ASSERT_EQ(plan.buffers.size(), 3u);
  EXPECT_EQ(plan.buffers[0].bytes, 4 * 420u);
  EXPECT_EQ(plan.buffers[1].bytes, 4 * 35u);
  EXPECT_EQ(plan.buffers[2].bytes, 4 * 24u);
  EXPECT_EQ(plan.buffers[1].pieces.at(0).member, kMask);
}

TEST(BatchPlan, ListLayoutIsOneBufferPerMemberPerSampleInSampleOrder) {
  const LayoutPlan plan = plan_of(BatchLayout::list, 2);
  ASSERT_EQ(plan.buffers.size(), 6u);
  EXPECT_EQ(plan.buffers[3].pieces.at(0).member, kImage);
  EXPECT_EQ(plan.buffers[3].pieces.at(0).first_sample, 1u);
  EXPECT_EQ(plan.buffers[5].pieces.at(0).member, kIds);
  EXPECT_EQ(plan.buffers[5].bytes, 24u);
}

TEST(BatchPlan, PlacementsCoverEveryMemberOfEverySampleWithoutOverlap) {
  for (BatchLayout layout : all_batch_layouts()) {
    const LayoutPlan plan = plan_of(layout, 3);
    const std::vector<Placement> places = plan.placements();
    ASSERT_EQ(places.size(), 9u);
    // [begin, end) per buffer must not overlap and must lie inside the buffer.
    std::vector<std::vector<std::pair<std::size_t, std::size_t>>> used(plan.buffers.size());
    for (std::size_t sample = 0; sample < 3; ++sample) {
      for (Member member = 0; member < plan.member_count(); ++member) {
        const Placement& place = places[plan.slot_of(member, sample)];
        const std::size_t end = place.offset + plan.contents.room_of(member, sample);
        ASSERT_LT(place.buffer, plan.buffers.size());
        EXPECT_LE(end, plan.buffers[place.buffer].bytes) << to_string(layout);
        for (const auto& [b, e] : used[place.buffer]) {
          EXPECT_TRUE(end <= b || place.offset >= e) << to_string(layout);
        }
        used[place.buffer].push_back({place.offset, end});
      }
    }
  }
  const LayoutPlan single = plan_of(BatchLayout::single, 3);
  const Placement mask2 = single.placements()[single.slot_of(kMask, 2)];
  EXPECT_EQ(mask2.buffer, 0u);
  EXPECT_EQ(mask2.offset, align_up(3 * 420, 256) + 2 * 35);
}

TEST(BatchPlan, PackingPlacesBuffersOnAlignedOffsets) {
  const LayoutPlan tuple = plan_of(BatchLayout::tuple, 2);
  const PackPlan pack = plan_packing(tuple);
  EXPECT_EQ(pack.offsets, (std::vector<std::size_t>{0, 1024, 1280}));
  EXPECT_EQ(pack.bytes, 1328u);

  const LayoutPlan list = plan_of(BatchLayout::list, 16);
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
  const LayoutPlan tuple = plan_of(BatchLayout::tuple, 4);
  const PackPlan tuple_pack = plan_packing(tuple);
  EXPECT_EQ(packed_offset(tuple, tuple_pack, kImage, 3), 3 * 420u);
  EXPECT_EQ(packed_offset(tuple, tuple_pack, kMask, 1), align_up(4 * 420, 256) + 35);
  EXPECT_EQ(packed_stride(tuple, tuple_pack, kImage), 420u);

  // list: img0 @0, mask0 @512, ids0 @768, img1 @1024, ...
  const LayoutPlan list = plan_of(BatchLayout::list, 4);
  const PackPlan list_pack = plan_packing(list);
  EXPECT_EQ(packed_offset(list, list_pack, kMask, 0), 512u);
  EXPECT_EQ(packed_offset(list, list_pack, kImage, 1), 1024u);
  EXPECT_EQ(packed_stride(list, list_pack, kImage), 1024u);
  EXPECT_EQ(packed_stride(list, list_pack, kIds), 1024u);

  const LayoutPlan predict = plan_of(BatchLayout::list, 4, BatchTask::predict);
  EXPECT_EQ(packed_stride(predict, plan_packing(predict), kImage), 512u);

  const LayoutPlan one = plan_of(BatchLayout::list, 1);
  EXPECT_EQ(packed_stride(one, plan_packing(one), kImage), 420u);
}

TEST(BatchPlan, StrideRefusesNonUniformPlacement) {
  const LayoutPlan list = plan_of(BatchLayout::list, 4);
  PackPlan pack = plan_packing(list);
  for (std::size_t b = 6; b < pack.offsets.size(); ++b) {
    pack.offsets[b] += 256;  // samples 2 and 3 one step further
  }
  EXPECT_THROW(packed_stride(list, pack, kImage), std::logic_error);
}

TEST(BatchPlan, RejectsEmptyBatchesAndUnknownMembers) {
  EXPECT_THROW(plan_of(BatchLayout::tuple, 0), std::invalid_argument);
  EXPECT_THROW(batch_contents(testing::plan_tile(), {}, 2, Collate::pad, 1), std::invalid_argument);
  const LayoutPlan predict = plan_of(BatchLayout::tuple, 2, BatchTask::predict);
  EXPECT_THROW(predict.slot_of(kMask, 0), std::out_of_range);
  EXPECT_THROW(predict.slot_of(kImage, 2), std::out_of_range);
}

// A member that varies: drawn per sample within its range, the same for the same seed; under
// collate=pad every sample takes the batch's longest, under collate=list its own.
TEST(BatchPlan, AVaryingMemberIsDrawnAndPaddedToTheLongestOrKeptAsItIs) {
  const SampleSpec tokens = parse_sample("ids:1..64:int64,label::int64");
  const BatchContents padded = contents_of(16, BatchTask::train, tokens, Collate::pad);
  const BatchContents listed = contents_of(16, BatchTask::train, tokens, Collate::list);
  std::size_t longest = 0;
  std::set<std::size_t> lengths;
  for (std::size_t sample = 0; sample < 16; ++sample) {
    const std::size_t bytes = padded.bytes_of(0, sample);
    EXPECT_EQ(bytes % 8, 0u);
    EXPECT_GE(bytes, 8u);
    EXPECT_LE(bytes, 64u * 8);
    EXPECT_EQ(listed.bytes_of(0, sample), bytes) << "the same draws either way";
    EXPECT_EQ(listed.room_of(0, sample), bytes);
    longest = std::max(longest, bytes);
    lengths.insert(bytes);
    EXPECT_EQ(padded.room_of(1, sample), 8u) << "a fixed member is never padded";
  }
  EXPECT_GT(lengths.size(), 4u) << "lengths vary";
  for (std::size_t sample = 0; sample < 16; ++sample) {
    EXPECT_EQ(padded.room_of(0, sample), longest);
  }
  EXPECT_FALSE(padded.split(0));
  EXPECT_TRUE(listed.split(0));
  EXPECT_FALSE(listed.split(1));
  EXPECT_EQ(padded.payload_bytes(), listed.payload_bytes()) << "padding is not payload";
}

TEST(BatchPlan, CollateListKeepsEachSamplesVaryingMemberAsItsOwnTensor) {
  const SampleSpec boxes = parse_sample("image:2x4:float32,boxes:0..9x4:float32");
  const LayoutPlan tuple = plan_of(BatchLayout::tuple, 5, BatchTask::train, boxes, Collate::list);
  ASSERT_EQ(tuple.buffers.size(), 1u + 5u) << "the images as one tensor, the boxes one a sample";
  EXPECT_EQ(tuple.buffers[0].bytes, 5u * 32);
  for (std::size_t sample = 0; sample < 5; ++sample) {
    EXPECT_EQ(tuple.buffers[1 + sample].bytes, tuple.contents.bytes_of(1, sample));
  }
  const LayoutPlan padded = plan_of(BatchLayout::tuple, 5, BatchTask::train, boxes, Collate::pad);
  ASSERT_EQ(padded.buffers.size(), 2u);
  EXPECT_EQ(padded.buffers[1].bytes, 5 * padded.contents.room_of(1, 0));
  // One tensor holding everything: each sample's boxes at its own aligned offset.
  const LayoutPlan single = plan_of(BatchLayout::single, 5, BatchTask::train, boxes, Collate::list);
  ASSERT_EQ(single.buffers.size(), 1u);
  ASSERT_EQ(single.buffers[0].pieces.size(), 6u);
  for (const Piece& piece : single.buffers[0].pieces) {
    EXPECT_EQ(piece.offset % kBatchAlignment, 0u);
  }
  for (BatchLayout layout : all_batch_layouts()) {
    for (Collate collate : {Collate::pad, Collate::list}) {
      const LayoutPlan plan = plan_of(layout, 5, BatchTask::train, boxes, collate);
      const std::vector<Placement> places = plan.placements();
      for (std::size_t sample = 0; sample < 5; ++sample) {
        for (Member member = 0; member < 2; ++member) {
          const Placement& place = places[plan.slot_of(member, sample)];
          EXPECT_LE(place.offset + plan.contents.room_of(member, sample),
                    plan.buffers[place.buffer].bytes)
              << to_string(layout) << " " << to_string(collate);
        }
      }
    }
  }
}

TEST(BatchPlan, NamesAreDistinct) {
  std::set<std::string_view> names;
  for (BatchLayout layout : all_batch_layouts()) {
    names.insert(to_string(layout));
  }
  EXPECT_EQ(names.size(), 4u);
  EXPECT_EQ(to_string(BatchTask::predict), "predict");
  EXPECT_EQ(to_string(Collate::pad), "pad");
  EXPECT_EQ(to_string(Collate::list), "list");
}

}  // namespace
}  // namespace h2d
