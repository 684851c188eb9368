// The host side of every pin policy, with pageable memory standing in for page-locked memory:
// what the copies would deliver to the device block is exactly the samples, at the packed offsets.

#include <gtest/gtest.h>

#include <cstring>
#include <stdexcept>
#include <vector>

#include "harness/batch/batch_staging.hpp"
#include "harness/batch/sample_set.hpp"
#include "harness/core/checksum.hpp"
#include "harness/host/team_memcpy.hpp"
#include "tests/batch_test_support.hpp"

namespace h2d {
namespace {

using testing::kIds;
using testing::kImage;
using testing::kMask;
using testing::plan_of;

// The tile's members at odd sizes (image 420 bytes, mask 35, ids 24: padding shows), and a
// detection-like sample whose per-object members vary (some samples draw none).
const SampleSpec& varying_sample() {
  static const SampleSpec spec =
      parse_sample("image:3x5x7:float32,boxes:0..3x4:float32,labels:0..3:int64,size:2:int64");
  return spec;
}

struct Combo {
  const SampleSpec* sample;
  BatchTask task;
  BatchLayout layout;
  Collate collate;
  PinPolicy policy;

  LayoutPlan plan(std::size_t batch) const {
    return plan_of(layout, batch, task, *sample, collate);
  }
};

std::vector<Combo> all_combos() {
  std::vector<Combo> combos;
  for (const SampleSpec* sample : {&testing::plan_tile(), &varying_sample()}) {
    for (BatchTask task : {BatchTask::train, BatchTask::predict}) {
      for (BatchLayout layout : all_batch_layouts()) {
        for (Collate collate : {Collate::pad, Collate::list}) {
          for (PinPolicy policy : all_pin_policies()) {
            combos.push_back({sample, task, layout, collate, policy});
          }
        }
      }
    }
  }
  return combos;
}

std::string describe(const Combo& c) {
  return c.sample->text() + " " + std::string(to_string(c.task)) + "/" +
         std::string(to_string(c.layout)) + "/" + std::string(to_string(c.collate)) + "/" +
         std::string(to_string(c.policy));
}

TEST(SampleSet, EverySampleMemberHasItsOwnPattern) {
  for (const SampleSpec* spec : {&testing::plan_tile(), &varying_sample()}) {
    const SampleSet samples(testing::contents_of(3, BatchTask::train, *spec), 7);
    for (std::size_t sample = 0; sample < 3; ++sample) {
      for (Member member = 0; member < samples.contents().member_count(); ++member) {
        EXPECT_EQ(host_checksum(samples.data(member, sample), samples.bytes(member, sample)),
                  samples.checksum(member, sample));
      }
    }
    EXPECT_NE(samples.checksum(kImage, 0), samples.checksum(kImage, 1));
    EXPECT_THROW(samples.data(kImage, 3), std::out_of_range);
  }
  const SampleSet images(testing::contents_of(1, BatchTask::predict), 7);
  EXPECT_THROW(images.data(kMask, 0), std::out_of_range);
}

TEST(BatchStaging, CopiesMatchThePlan) {
  for (const Combo& c : all_combos()) {
    const LayoutPlan layout = c.plan(3);
    const TransferPlan transfer = plan_transfer(layout, c.policy);
    const BatchStaging staging(layout, transfer, HostKind::pageable);
    ASSERT_EQ(staging.slots(), transfer.slots) << describe(c);
    for (std::size_t slot = 0; slot < staging.slots(); ++slot) {
      const std::vector<HostCopy>& copies = staging.copies(slot);
      EXPECT_EQ(copies.size(), transfer.copies_per_batch) << describe(c);
      std::size_t bytes = 0;
      std::size_t end = 0;  // copies go to increasing, non-overlapping device ranges
      for (const HostCopy& copy : copies) {
        EXPECT_GE(copy.device_offset, end) << describe(c);
        EXPECT_EQ(copy.device_offset % kBatchAlignment, 0u) << describe(c);
        end = copy.device_offset + copy.bytes;
        bytes += copy.bytes;
      }
      EXPECT_LE(end, transfer.pack.bytes) << describe(c);
      EXPECT_EQ(bytes, transfer.copied_bytes) << describe(c);
    }
  }
}

TEST(BatchStaging, EveryPolicyDeliversEverySampleToItsPackedOffset) {
  for (const Combo& c : all_combos()) {
    const LayoutPlan layout = c.plan(3);
    const TransferPlan transfer = plan_transfer(layout, c.policy);
    const SampleSet samples(layout.contents, 11);
    BatchStaging staging(layout, transfer, HostKind::pageable);
    for (std::size_t slot = 0; slot < staging.slots(); ++slot) {
      staging.prepare(samples, slot);
      // What the device block holds after the copies: apply them to a host stand-in.
      std::vector<std::byte> device(transfer.pack.bytes, std::byte{0xA5});  // not zero: padding
      for (const HostCopy& copy : staging.copies(slot)) {
        std::memcpy(device.data() + copy.device_offset, copy.source, copy.bytes);
      }
      for (std::size_t sample = 0; sample < 3; ++sample) {
        for (Member member = 0; member < layout.member_count(); ++member) {
          const std::size_t bytes = samples.bytes(member, sample);
          const std::size_t room = layout.contents.room_of(member, sample);
          if (room == 0) {
            continue;  // drew no elements and was padded to none: nothing to deliver
          }
          const std::size_t offset = packed_offset(layout, transfer.pack, member, sample);
          EXPECT_EQ(host_checksum(device.data() + offset, bytes), samples.checksum(member, sample))
              << describe(c) << " member " << member << " sample " << sample;
          // collate=pad: the rest of its room arrives as zeros
          for (std::size_t i = bytes; i < room; ++i) {
            ASSERT_EQ(device[offset + i], std::byte{0}) << describe(c) << " padding " << i;
          }
          if (bytes > 0) {
            EXPECT_EQ(host_checksum(staging.staged(member, sample, slot), bytes),
                      samples.checksum(member, sample))
                << describe(c);
          }
        }
      }
    }
  }
}

TEST(BatchStaging, SlotsAreSeparateBlocks) {
  const LayoutPlan layout = plan_of(BatchLayout::tuple, 2, BatchTask::predict);
  const BatchStaging staging(layout, plan_transfer(layout, PinPolicy::pinned_slots),
                             HostKind::pageable);
  ASSERT_EQ(staging.slots(), 2u);
  EXPECT_NE(staging.copies(0)[0].source, staging.copies(1)[0].source);
}

TEST(BatchStaging, PackedBlockHoldsTheBuffersAtTheirAlignedOffsets) {
  const LayoutPlan layout = plan_of(BatchLayout::tuple, 2);
  const TransferPlan transfer = plan_transfer(layout, PinPolicy::packed);
  const SampleSet samples(layout.contents, 5);
  BatchStaging staging(layout, transfer, HostKind::pageable);
  staging.prepare(samples, 0);
  const std::byte* block = staging.copies(0).at(0).source;
  EXPECT_EQ(staging.staged(kImage, 0, 0), block);
  EXPECT_EQ(staging.staged(kMask, 0, 0), block + 1024);
  EXPECT_EQ(staging.staged(kIds, 1, 0), block + 1280 + 24);
}

TEST(BatchStaging, RefusesSlotsItDoesNotHaveAndTooFewSamples) {
  const LayoutPlan layout = plan_of(BatchLayout::single, 2, BatchTask::predict);
  BatchStaging staging(layout, plan_transfer(layout, PinPolicy::none), HostKind::pageable);
  const SampleSet two(testing::contents_of(2, BatchTask::predict), 1);
  const SampleSet one(testing::contents_of(1, BatchTask::predict), 1);
  EXPECT_THROW(staging.prepare(two, 1), std::out_of_range);
  EXPECT_THROW(staging.prepare(one, 0), std::out_of_range);
  EXPECT_NO_THROW(staging.prepare(two, 0));
}

TEST(TeamMemcpy, CopiesEveryByteWhateverTheSplit) {
  std::vector<std::byte> source(1001);
  fill_pattern(source.data(), source.size(), 3);
  for (std::size_t threads : {1, 3, 4}) {
    ThreadTeam team(threads, "test");
    std::vector<std::byte> destination(source.size(), std::byte{0});
    team_memcpy(team, destination.data(), source.data(), source.size());
    EXPECT_EQ(destination, source) << threads;
  }
}

}  // namespace
}  // namespace h2d
