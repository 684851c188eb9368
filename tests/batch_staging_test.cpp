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

namespace h2d {
namespace {

const SampleShape kStagingShape{3, 5, 7};  // image 420 bytes, mask 35, ids 24: padding shows

struct Combo {
  BatchTask task;
  BatchLayout layout;
  PinPolicy policy;
};

std::vector<Combo> all_combos() {
  std::vector<Combo> combos;
  for (BatchTask task : {BatchTask::train, BatchTask::predict}) {
    for (BatchLayout layout : all_batch_layouts()) {
      for (PinPolicy policy : all_pin_policies()) {
        combos.push_back({task, layout, policy});
      }
    }
  }
  return combos;
}

std::string describe(const Combo& c) {
  return std::string(to_string(c.task)) + "/" + std::string(to_string(c.layout)) + "/" +
         std::string(to_string(c.policy));
}

TEST(SampleSet, EverySampleMemberHasItsOwnPattern) {
  const SampleSet samples(kStagingShape, sent_members(BatchTask::train), 3, 7);
  for (std::size_t sample = 0; sample < 3; ++sample) {
    for (Member member : samples.members()) {
      EXPECT_EQ(host_checksum(samples.data(member, sample), member_bytes(kStagingShape, member)),
                samples.checksum(member, sample));
    }
  }
  EXPECT_NE(samples.checksum(Member::image, 0), samples.checksum(Member::image, 1));
  EXPECT_THROW(samples.data(Member::image, 3), std::out_of_range);
  const SampleSet images(kStagingShape, {Member::image}, 1, 7);
  EXPECT_THROW(images.data(Member::mask, 0), std::out_of_range);
}

TEST(BatchStaging, CopiesMatchThePlan) {
  for (const Combo& c : all_combos()) {
    const LayoutPlan layout = plan_layout(c.layout, kStagingShape, sent_members(c.task), 3);
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
    const LayoutPlan layout = plan_layout(c.layout, kStagingShape, sent_members(c.task), 3);
    const TransferPlan transfer = plan_transfer(layout, c.policy);
    const SampleSet samples(kStagingShape, layout.members, 3, 11);
    BatchStaging staging(layout, transfer, HostKind::pageable);
    for (std::size_t slot = 0; slot < staging.slots(); ++slot) {
      staging.prepare(samples, slot);
      // What the device block holds after the copies: apply them to a host stand-in.
      std::vector<std::byte> device(transfer.pack.bytes, std::byte{0});
      for (const HostCopy& copy : staging.copies(slot)) {
        std::memcpy(device.data() + copy.device_offset, copy.source, copy.bytes);
      }
      for (std::size_t sample = 0; sample < 3; ++sample) {
        for (Member member : layout.members) {
          const std::size_t bytes = member_bytes(kStagingShape, member);
          const std::size_t offset = packed_offset(layout, transfer.pack, member, sample);
          EXPECT_EQ(host_checksum(device.data() + offset, bytes), samples.checksum(member, sample))
              << describe(c) << " " << to_string(member) << " " << sample;
          EXPECT_EQ(host_checksum(staging.staged(member, sample, slot), bytes),
                    samples.checksum(member, sample))
              << describe(c);
        }
      }
    }
  }
}

TEST(BatchStaging, SlotsAreSeparateBlocks) {
  const LayoutPlan layout = plan_layout(BatchLayout::tuple, kStagingShape, {Member::image}, 2);
  const BatchStaging staging(layout, plan_transfer(layout, PinPolicy::pinned_slots),
                             HostKind::pageable);
  ASSERT_EQ(staging.slots(), 2u);
  EXPECT_NE(staging.copies(0)[0].source, staging.copies(1)[0].source);
}

TEST(BatchStaging, PackedBlockHoldsTheBuffersAtTheirAlignedOffsets) {
  const LayoutPlan layout =
      plan_layout(BatchLayout::tuple, kStagingShape, sent_members(BatchTask::train), 2);
  const TransferPlan transfer = plan_transfer(layout, PinPolicy::packed);
  const SampleSet samples(kStagingShape, layout.members, 2, 5);
  BatchStaging staging(layout, transfer, HostKind::pageable);
  staging.prepare(samples, 0);
  const std::byte* block = staging.copies(0).at(0).source;
  EXPECT_EQ(staging.staged(Member::image, 0, 0), block);
  EXPECT_EQ(staging.staged(Member::mask, 0, 0), block + 1024);
  EXPECT_EQ(staging.staged(Member::ids, 1, 0), block + 1280 + 24);
}

TEST(BatchStaging, RefusesSlotsItDoesNotHaveAndTooFewSamples) {
  const LayoutPlan layout = plan_layout(BatchLayout::single, kStagingShape, {Member::image}, 2);
  BatchStaging staging(layout, plan_transfer(layout, PinPolicy::none), HostKind::pageable);
  const SampleSet two(kStagingShape, {Member::image}, 2, 1);
  const SampleSet one(kStagingShape, {Member::image}, 1, 1);
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
