#pragma once

// How a batch gets into page-locked memory before its copies, if at all. Pure planning: which host
// memory the copies read, how many copies a batch takes, what the host copies first.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/batch/batch.hpp"

namespace h2d {

//   none:         the collate's pageable buffers are copied as they are;
//   requested:    pin_memory=True: the framework pins the batch member by member if it
//                 recognises its type (framework_pins), otherwise it silently stays pageable;
//   per_member:   each buffer pinned on its own (a custom pin_memory() pinning every member):
//                 one pinned copy per buffer, one transfer per buffer;
//   packed:       the buffers written into one pinned block at aligned offsets: one transfer,
//                 device-side views at the same offsets;
//   pinned_slots: the collate writes straight into reused pinned slots laid out like the packed
//                 block: no extra host copy, one transfer.
enum class PinPolicy { none, requested, per_member, packed, pinned_slots };
std::string_view to_string(PinPolicy policy);
const std::vector<PinPolicy>& all_pin_policies();

// Whether DataLoader(pin_memory=True) pins a batch of this layout. PyTorch's pin_memory()
// (torch/utils/data/_utils/pin_memory.py) pins a Tensor with Tensor.pin_memory(), recurses into
// mappings, namedtuples, tuples and sequences, calls .pin_memory() on objects that define one,
// and returns anything else unchanged, without a warning (docs: "Memory Pinning": a custom batch
// or element type "will not be recognized" and is returned "without pinning the memory").
// Measured with PyTorch 2.11 on the H200 box (../shared/gpu-runs/2026-12-04-h200/pytorch.json): a
// Tensor, a tuple, a list, a namedtuple and a dict of Tensors come back pinned, member by member,
// each member a new pinned copy; a custom batch class without pin_memory() comes back unpinned.
// So `single`, `tuple` and `list` are pinned; `custom` is not.
bool framework_pins(BatchLayout layout);

// Where the copies read from.
enum class Staging {
  layout_buffers,  // the collate's pageable buffers
  pinned_copies,   // a pinned copy of each layout buffer
  packed_block,    // one pinned block, the layout buffers packed into it
  slots,           // pinned slots the collate writes into directly
};

struct TransferPlan {
  PinPolicy policy = PinPolicy::none;
  Staging staging = Staging::layout_buffers;
  PackPlan pack;                     // device offsets of the layout buffers (all stagings)
  std::size_t slots = 1;             // pinned slots in rotation (Staging::slots)
  std::size_t copies_per_batch = 0;  // cudaMemcpyAsync calls per batch
  std::size_t copied_bytes = 0;      // bytes those calls move (padding included)
  std::size_t pinned_bytes = 0;      // page-locked host memory the staging holds
  std::size_t host_copy_bytes = 0;   // bytes memcpy'd on the host after the collate (pin/pack)

  bool pinned() const { return staging != Staging::layout_buffers; }
};

// Slots in rotation for pin=pinned_slots: the batch being copied and the one being collated.
inline constexpr std::size_t kPinnedSlots = 2;

TransferPlan plan_transfer(const LayoutPlan& layout, PinPolicy policy);

// Why a (layout, policy) case would measure exactly what another case measures, or nothing when
// it is worth running: a batch the framework pins member by member is what pin=requested measures,
// packing a layout of one buffer is pinning that buffer, and a custom batch differs from a tuple
// only in what pin=requested does to it.
std::optional<std::string> redundant_case(const LayoutPlan& layout, PinPolicy policy);

}  // namespace h2d
