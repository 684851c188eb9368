// A loader loop's batch buffer holds each member of the sample in its own page-aligned region
// (the tile: one, as before --sample), the ids after them; what a worker writes there, and what a
// worker process is told of the sample.

#include "harness/pipeline/slot_layout.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "harness/core/cancellation.hpp"
#include "harness/core/page_size.hpp"
#include "harness/core/sample_spec.hpp"
#include "harness/host/spec_sample.hpp"
#include "harness/pipeline/batch_collation.hpp"
#include "harness/pipeline/loader_messages.hpp"
#include "harness/pipeline/pipeline_config.hpp"

namespace h2d {
namespace {

std::size_t page_rounded(std::size_t bytes) {
  const std::size_t page = memory_page_size();
  return (bytes + page - 1) / page * page;
}

TEST(SlotLayout, TheTileIsOneMemberWithTheIdsOnTheNextPageAsBefore) {
  PipelineConfig config;
  config.batch_size = 5;
  config.tile = 9;
  const SlotLayout layout(config);
  ASSERT_EQ(layout.members.size(), 1u);
  EXPECT_EQ(layout.members[0].offset, 0u);
  EXPECT_EQ(layout.members[0].room, config.sample_bytes());
  EXPECT_EQ(layout.ids_offset(), page_rounded(5 * config.sample_bytes()));
  EXPECT_EQ(layout.host_bytes(), layout.ids_offset() + 5 * 8);
  EXPECT_EQ(layout.segments(), 2u);
}

TEST(SlotLayout, EachMemberHasAPageAlignedRegionOfItsMostBytesPerSample) {
  PipelineConfig config;
  config.batch_size = 3;
  config.sample = parse_sample("image:3x4x4:uint8,boxes:0..5x4:float32,label::int64");
  const SlotLayout layout(config);
  ASSERT_EQ(layout.members.size(), 3u);
  EXPECT_EQ(layout.members[0].room, 48u);
  EXPECT_EQ(layout.members[1].room, 80u) << "a varying member takes its most bytes";
  EXPECT_EQ(layout.members[2].room, 8u);
  for (std::size_t m = 0; m < layout.members.size(); ++m) {
    EXPECT_EQ(layout.members[m].offset % memory_page_size(), 0u) << m;
    EXPECT_EQ(layout.segment_offset(m), layout.members[m].offset);
    EXPECT_EQ(layout.segment_bytes(m), 3 * layout.members[m].room);
  }
  EXPECT_EQ(layout.members[1].offset, page_rounded(3 * 48));
  EXPECT_EQ(layout.segments(), 4u);
  EXPECT_EQ(layout.segment_offset(3), layout.ids_offset());
  EXPECT_EQ(layout.segment_bytes(3), layout.ids_bytes());
  EXPECT_EQ(layout.first_word(0), 0u);
  EXPECT_EQ(layout.first_word(1), 6u);
  EXPECT_EQ(layout.first_word(2), 16u);
}

TEST(SpecSample, TheSameSampleGetsTheSameBytesAndItsPaddingIsZero) {
  const SampleSpec spec = parse_sample("boxes:0..50x4:float32,size:2:int64");
  const std::vector<std::size_t> rooms{spec.members[0].max_bytes(), 16};
  const Cancellation never;
  std::vector<std::byte> first(rooms[0] + rooms[1], std::byte{0x5a});
  std::vector<std::byte> again(first.size(), std::byte{0xa5});
  for (std::uint64_t id : {0u, 1u, 17u}) {
    const std::vector<std::byte*> a{first.data(), first.data() + rooms[0]};
    const std::vector<std::byte*> b{again.data(), again.data() + rooms[0]};
    ASSERT_TRUE(produce_spec_sample(spec.members, a, rooms, 7, id, 0, never));
    ASSERT_TRUE(produce_spec_sample(spec.members, b, rooms, 7, id, 0, never));
    EXPECT_EQ(std::memcmp(first.data(), again.data(), first.size()), 0) << id;
    const std::size_t drawn = drawn_bytes(spec.members[0], 0, 7, id);
    for (std::size_t i = drawn; i < rooms[0]; ++i) {
      ASSERT_EQ(first[i], std::byte{0}) << "padding byte " << i << " of sample " << id;
    }
  }
}

TEST(SpecSample, ASlotOfAVaryingSampleChecksumsTheSameWhereverItsRegionsLie) {
  PipelineConfig config;
  config.batch_size = 4;
  config.sample_us = 0;
  config.sample = parse_sample("a:0..9:int32,b:9:int32");
  const SlotLayout layout(config);
  std::vector<std::byte> slot(layout.host_bytes());
  std::vector<std::byte> a(layout.segment_bytes(0));
  std::vector<std::byte> b(layout.segment_bytes(1));
  std::vector<std::byte> ids(layout.segment_bytes(2));
  const Cancellation never;
  const SampleIds sample_ids{100, config.batch_size};
  ASSERT_TRUE(collate_batch(config, layout, sample_ids, 2, slot_regions(layout, slot.data()),
                            nullptr, never));
  const BatchRegions apart{a.data(), b.data(), ids.data()};
  ASSERT_TRUE(collate_batch(config, layout, sample_ids, 2, apart, nullptr, never));
  EXPECT_EQ(sample_checksums(layout, slot_regions(layout, slot.data())),
            sample_checksums(layout, apart));
  // The two members take the same room, so each buffer can stand in the other's place.
  ASSERT_EQ(a.size(), b.size());
  const BatchRegions swapped{b.data(), a.data(), ids.data()};
  EXPECT_NE(sample_checksums(layout, swapped), sample_checksums(layout, apart));
  std::uint64_t id = 0;
  std::memcpy(&id, ids.data() + 8, 8);
  EXPECT_EQ(id, 100u + 2 * 4 + 1);
}

TEST(LoaderStart, AWorkerProcessIsToldTheSampleAndATileRunTellsItNone) {
  PipelineConfig config;
  config.sample = parse_sample("detection");
  const LoaderStart start = loader_start(config, 4096);
  const PipelineConfig worker = config_of(start, sample_words(config));
  ASSERT_TRUE(worker.sample.has_value());
  EXPECT_EQ(worker.sample->text(), config.sample->text());
  EXPECT_TRUE(sample_crosses(config));
  PipelineConfig tile;
  EXPECT_TRUE(sample_words(tile).empty());
  EXPECT_FALSE(config_of(loader_start(tile, 4096), {}).sample.has_value());
  std::vector<std::uint64_t> cut = sample_words(config);
  cut.pop_back();
  EXPECT_THROW(config_of(start, cut), std::runtime_error);
}

}  // namespace
}  // namespace h2d
