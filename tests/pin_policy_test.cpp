// The pin policies as plans: the PyTorch rule, copies per batch, pinned bytes, host copies.

#include <gtest/gtest.h>

#include <set>

#include "harness/batch/pin_policy.hpp"
#include "harness/core/pinned_budget.hpp"
#include "harness/core/pinned_fit.hpp"
#include "harness/host/host_copy.hpp"
#include "tests/batch_test_support.hpp"

namespace h2d {
namespace {

// image 420 bytes, mask 35, ids 24
LayoutPlan train(BatchLayout layout, std::size_t batch) {
  return testing::plan_of(layout, batch);
}

// PyTorch 2.11, measured: Tensor, tuple, list (and namedtuple, dict) pinned member by member; a
// custom batch class without pin_memory() returned unpinned.
TEST(PinPolicy, FrameworkPinsEveryLayoutButACustomClass) {
  EXPECT_TRUE(framework_pins(BatchLayout::single));
  EXPECT_TRUE(framework_pins(BatchLayout::tuple));
  EXPECT_TRUE(framework_pins(BatchLayout::list));
  EXPECT_FALSE(framework_pins(BatchLayout::custom));
}

TEST(PinPolicy, RequestedOnACustomBatchSilentlyStaysPageable) {
  const TransferPlan requested = plan_transfer(train(BatchLayout::custom, 4), PinPolicy::requested);
  EXPECT_EQ(requested.staging, Staging::layout_buffers);
  EXPECT_FALSE(requested.pinned());
  EXPECT_EQ(requested.pinned_bytes, 0u);
  EXPECT_EQ(requested.host_copy_bytes, 0u);
  EXPECT_EQ(requested.copies_per_batch, 3u) << "the tuple's three buffers";
}

TEST(PinPolicy, RequestedOnATupleOrListPinsEachMemberWithACopy) {
  const LayoutPlan tuple = train(BatchLayout::tuple, 4);
  const TransferPlan requested = plan_transfer(tuple, PinPolicy::requested);
  EXPECT_EQ(requested.staging, Staging::pinned_copies);
  EXPECT_EQ(requested.copies_per_batch, 3u);
  EXPECT_EQ(requested.pinned_bytes, tuple.payload_bytes);
  EXPECT_EQ(requested.host_copy_bytes, tuple.payload_bytes) << "the pin thread's copy";
  const TransferPlan on_list = plan_transfer(train(BatchLayout::list, 4), PinPolicy::requested);
  EXPECT_TRUE(on_list.pinned());
  EXPECT_EQ(on_list.copies_per_batch, 12u);
  // The same as pinning each member by hand: that case is not generated twice.
  EXPECT_TRUE(redundant_case(tuple, PinPolicy::per_member).has_value());
  const LayoutPlan custom = train(BatchLayout::custom, 4);
  EXPECT_FALSE(redundant_case(custom, PinPolicy::requested).has_value());
  for (PinPolicy policy :
       {PinPolicy::none, PinPolicy::per_member, PinPolicy::packed, PinPolicy::pinned_slots}) {
    EXPECT_NE(redundant_case(custom, policy).value_or("").find("layout=tuple"), std::string::npos)
        << to_string(policy);
  }
}

TEST(PinPolicy, RequestedOnASingleTensorIsHonoured) {
  const LayoutPlan layout = train(BatchLayout::single, 4);
  const TransferPlan requested = plan_transfer(layout, PinPolicy::requested);
  EXPECT_EQ(requested.staging, Staging::pinned_copies);
  EXPECT_TRUE(requested.pinned());
  EXPECT_EQ(requested.copies_per_batch, 1u);
  // Tensor.pin_memory() copies into new pinned storage: a host copy of the whole tensor.
  EXPECT_EQ(requested.host_copy_bytes, layout.buffers[0].bytes);
  EXPECT_EQ(requested.pinned_bytes, layout.buffers[0].bytes);
}

TEST(PinPolicy, PerMemberPinsEveryBufferAndCopiesEachOnItsOwn) {
  const LayoutPlan tuple = train(BatchLayout::tuple, 4);
  const TransferPlan per_member = plan_transfer(tuple, PinPolicy::per_member);
  EXPECT_EQ(per_member.staging, Staging::pinned_copies);
  EXPECT_EQ(per_member.copies_per_batch, 3u);
  EXPECT_EQ(per_member.pinned_bytes, 4u * (420 + 35 + 24));
  EXPECT_EQ(per_member.host_copy_bytes, 4u * (420 + 35 + 24));
  EXPECT_EQ(per_member.copied_bytes, 4u * (420 + 35 + 24));
  EXPECT_EQ(plan_transfer(train(BatchLayout::list, 16), PinPolicy::per_member).copies_per_batch,
            48u);
}

TEST(PinPolicy, PackedIsOneCopyOfTheAlignedBlock) {
  const LayoutPlan tuple = train(BatchLayout::tuple, 2);
  const TransferPlan packed = plan_transfer(tuple, PinPolicy::packed);
  EXPECT_EQ(packed.staging, Staging::packed_block);
  EXPECT_EQ(packed.copies_per_batch, 1u);
  EXPECT_EQ(packed.pack.offsets, (std::vector<std::size_t>{0, 1024, 1280}));
  EXPECT_EQ(packed.copied_bytes, 1328u);  // padding travels too
  EXPECT_EQ(packed.pinned_bytes, 1328u);
  EXPECT_EQ(packed.host_copy_bytes, tuple.payload_bytes);
}

TEST(PinPolicy, PinnedSlotsSkipTheHostCopyAndHoldTwoBlocks) {
  const TransferPlan slots = plan_transfer(train(BatchLayout::list, 3), PinPolicy::pinned_slots);
  EXPECT_EQ(slots.staging, Staging::slots);
  EXPECT_EQ(slots.slots, kPinnedSlots);
  EXPECT_EQ(slots.copies_per_batch, 1u);
  EXPECT_EQ(slots.host_copy_bytes, 0u);
  EXPECT_EQ(slots.pinned_bytes, kPinnedSlots * slots.pack.bytes);
}

TEST(PinPolicy, NoneCopiesTheCollatedBuffersAsTheyAre) {
  const TransferPlan none = plan_transfer(train(BatchLayout::single, 2), PinPolicy::none);
  EXPECT_FALSE(none.pinned());
  EXPECT_EQ(none.copies_per_batch, 1u);
  EXPECT_EQ(none.host_copy_bytes, 0u);
  EXPECT_EQ(none.copied_bytes, 1328u);
}

TEST(PinPolicy, RedundantCasesAreNamed) {
  const LayoutPlan single = train(BatchLayout::single, 4);
  ASSERT_TRUE(redundant_case(single, PinPolicy::per_member));
  EXPECT_NE(redundant_case(single, PinPolicy::packed)->find("requested"), std::string::npos);
  const LayoutPlan predict_tuple = testing::plan_of(BatchLayout::tuple, 4, BatchTask::predict);
  EXPECT_NE(redundant_case(predict_tuple, PinPolicy::packed)->find("requested"), std::string::npos);
  EXPECT_TRUE(redundant_case(predict_tuple, PinPolicy::per_member));
  for (PinPolicy policy : all_pin_policies()) {
    // pin=requested pins a tuple or a list member by member: per_member is that case again.
    const bool again = policy == PinPolicy::per_member;
    EXPECT_EQ(redundant_case(train(BatchLayout::tuple, 4), policy).has_value(), again)
        << to_string(policy);
    EXPECT_EQ(redundant_case(train(BatchLayout::list, 4), policy).has_value(), again)
        << to_string(policy);
  }
  for (PinPolicy policy : {PinPolicy::none, PinPolicy::requested, PinPolicy::pinned_slots}) {
    EXPECT_FALSE(redundant_case(single, policy)) << to_string(policy);
  }
}

TEST(PinPolicy, NamesAreDistinct) {
  std::set<std::string_view> names;
  for (PinPolicy policy : all_pin_policies()) {
    names.insert(to_string(policy));
  }
  EXPECT_EQ(names.size(), 5u);
}

TEST(HostCopy, PinnedFractionWeighsByBytes) {
  std::byte memory[2];
  const std::vector<HostCopy> copies{{&memory[0], 0, 100}, {&memory[1], 256, 300}};
  const PinnedProbe second_only = [&](const void* p) { return p == &memory[1]; };
  EXPECT_DOUBLE_EQ(pinned_fraction(copies, second_only), 0.75);
  EXPECT_DOUBLE_EQ(pinned_fraction(copies, [](const void*) { return false; }), 0.0);
  EXPECT_DOUBLE_EQ(pinned_fraction(copies, [](const void*) { return true; }), 1.0);
  EXPECT_DOUBLE_EQ(pinned_fraction({}, [](const void*) { return true; }), 0.0);
}

TEST(HostCopy, OnlyFewPinnedCopiesMayWaitBehindALatch) {
  std::byte memory[2];
  const std::vector<HostCopy> copies{{&memory[0], 0, 100}, {&memory[1], 256, 300}};
  const PinnedProbe all = [](const void*) { return true; };
  EXPECT_TRUE(latchable(copies, all));
  EXPECT_FALSE(latchable(copies, [&](const void* p) { return p == &memory[1]; }));
  EXPECT_TRUE(latchable(std::vector<HostCopy>(kMaxLatchedCopies, copies[0]), all));
  EXPECT_FALSE(latchable(std::vector<HostCopy>(kMaxLatchedCopies + 1, copies[0]), all));
}

}  // namespace
}  // namespace h2d

namespace h2d {
namespace {

TEST(PinnedFit, RefusesWhatThePinnedCapCannotHoldAndKeepsNothing) {
  const ScopedPinnedLimit limit(1024);
  EXPECT_THROW(require_pinned_fits(2048, "a test batch"), PinnedBudgetExceeded);
  EXPECT_NO_THROW(require_pinned_fits(1024, "a test batch"));
  EXPECT_NO_THROW(require_pinned_fits(0, "nothing"));
  EXPECT_EQ(pinned_budget().in_use(), 0u);
}

// The detection sample at batch 16: every member of every sample that crosses on its own is a
// copy (an object-less sample's empty boxes do not cross), and a packed batch is one.
TEST(PinPolicy, ADetectionBatchCountsACopyForEveryMemberThatCrossesOnItsOwn) {
  const SampleSpec detection = parse_sample("detection");
  const LayoutPlan list =
      testing::plan_of(BatchLayout::list, 16, BatchTask::train, detection, Collate::list);
  std::size_t crossing = 0;
  for (const std::size_t bytes : list.contents.bytes) {
    crossing += bytes > 0 ? 1 : 0;
  }
  EXPECT_GE(crossing, 16u * 3) << "image, orig_size and size always cross";
  EXPECT_EQ(plan_transfer(list, PinPolicy::none).copies_per_batch, crossing);
  EXPECT_EQ(plan_transfer(list, PinPolicy::requested).copies_per_batch, crossing);
  EXPECT_EQ(plan_transfer(list, PinPolicy::packed).copies_per_batch, 1u);
  EXPECT_EQ(plan_transfer(list, PinPolicy::pinned_slots).copies_per_batch, 1u);
  // A tuple whose per-object members are lists of tensors: the image, orig_size and size batched,
  // the four per-object members a tensor a sample.
  const LayoutPlan tuple =
      testing::plan_of(BatchLayout::tuple, 16, BatchTask::train, detection, Collate::list);
  std::size_t per_object = 0;
  for (std::size_t sample = 0; sample < 16; ++sample) {
    for (Member member = 1; member <= 4; ++member) {
      per_object += tuple.contents.bytes_of(member, sample) > 0 ? 1 : 0;
    }
  }
  EXPECT_EQ(plan_transfer(tuple, PinPolicy::requested).copies_per_batch, 3 + per_object);
  const LayoutPlan padded =
      testing::plan_of(BatchLayout::tuple, 16, BatchTask::train, detection, Collate::pad);
  EXPECT_EQ(plan_transfer(padded, PinPolicy::requested).copies_per_batch, 7u);
}

}  // namespace
}  // namespace h2d
