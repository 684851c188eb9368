#pragma once

#include <cstddef>
#include <vector>

#include "harness/batch/batch.hpp"
#include "harness/batch/pin_policy.hpp"
#include "harness/batch/sample_set.hpp"
#include "harness/cuda/host_memory.hpp"
#include "harness/host/host_copy.hpp"

namespace h2d {

// The host memory a pin policy collates into and copies from, allocated and first-touched once
// (as a caching pinned allocator or reused slots would), and the host work of one batch:
// collate the samples, then pin or pack them as the policy says.
//
// `locked_kind` is what the policy pins with: HostKind::pinned on a GPU machine; pageable to
// measure the same host work where no GPU is (host/collate).
class BatchStaging {
 public:
  BatchStaging(LayoutPlan layout, TransferPlan transfer, HostKind locked_kind);

  const LayoutPlan& layout() const { return layout_; }
  const TransferPlan& transfer() const { return transfer_; }
  std::size_t slots() const { return transfer_.slots; }

  // One batch's host work into `slot` (< slots()): samples 0..batch-1 of `samples`. The caller
  // makes sure no copy still reads the slot.
  void prepare(const SampleSet& samples, std::size_t slot);
  // The copies that send what prepare(slot) staged.
  const std::vector<HostCopy>& copies(std::size_t slot) const { return copies_.at(slot); }
  // The host bytes that copies(slot) deliver to the packed offset of (member, sample); nullptr
  // for a member of no bytes in that sample.
  const std::byte* staged(Member member, std::size_t sample, std::size_t slot) const;

 private:
  std::vector<std::byte*> collate_targets(std::size_t slot) const;

  LayoutPlan layout_;
  TransferPlan transfer_;
  std::vector<Placement> placements_;
  std::vector<HostBuffer> collated_;  // the layout's pageable buffers (not for slots)
  std::vector<HostBuffer> locked_;    // pinned copies, the packed block, or the slots
  std::vector<std::vector<HostCopy>> copies_;
};

}  // namespace h2d
