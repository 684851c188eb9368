#include "harness/batch/pin_policy.hpp"

namespace h2d {

std::string_view to_string(PinPolicy policy) {
  switch (policy) {
    case PinPolicy::none:
      return "none";
    case PinPolicy::requested:
      return "requested";
    case PinPolicy::per_member:
      return "per_member";
    case PinPolicy::packed:
      return "packed";
    case PinPolicy::pinned_slots:
      return "pinned_slots";
  }
  return "unknown";
}

const std::vector<PinPolicy>& all_pin_policies() {
  static const std::vector<PinPolicy> policies{PinPolicy::none, PinPolicy::requested,
                                               PinPolicy::per_member, PinPolicy::packed,
                                               PinPolicy::pinned_slots};
  return policies;
}

bool framework_pins(BatchLayout layout) {
  return layout != BatchLayout::custom;
}

namespace {

Staging staging_for(BatchLayout layout, PinPolicy policy) {
  switch (policy) {
    case PinPolicy::none:
      return Staging::layout_buffers;
    case PinPolicy::requested:
      // Tensor.pin_memory() copies each member into new pinned storage (the pin thread's copy).
      return framework_pins(layout) ? Staging::pinned_copies : Staging::layout_buffers;
    case PinPolicy::per_member:
      return Staging::pinned_copies;
    case PinPolicy::packed:
      return Staging::packed_block;
    case PinPolicy::pinned_slots:
      return Staging::slots;
  }
  return Staging::layout_buffers;
}

}  // namespace

TransferPlan plan_transfer(const LayoutPlan& layout, PinPolicy policy) {
  TransferPlan plan;
  plan.policy = policy;
  plan.staging = staging_for(layout.layout, policy);
  plan.pack = plan_packing(layout);
  std::size_t buffer_bytes = 0;
  std::size_t non_empty = 0;  // an empty tensor takes no copy
  for (const BufferPlan& buffer : layout.buffers) {
    buffer_bytes += buffer.bytes;
    non_empty += buffer.bytes > 0 ? 1 : 0;
  }
  switch (plan.staging) {
    case Staging::layout_buffers:
      plan.copies_per_batch = non_empty;
      plan.copied_bytes = buffer_bytes;
      break;
    case Staging::pinned_copies:
      plan.copies_per_batch = non_empty;
      plan.copied_bytes = buffer_bytes;
      plan.pinned_bytes = buffer_bytes;
      plan.host_copy_bytes = buffer_bytes;
      break;
    case Staging::packed_block:
      plan.copies_per_batch = 1;
      plan.copied_bytes = plan.pack.bytes;
      plan.pinned_bytes = plan.pack.bytes;
      plan.host_copy_bytes = buffer_bytes;
      break;
    case Staging::slots:
      plan.slots = kPinnedSlots;
      plan.copies_per_batch = 1;
      plan.copied_bytes = plan.pack.bytes;
      plan.pinned_bytes = kPinnedSlots * plan.pack.bytes;
      break;
  }
  return plan;
}

std::optional<std::string> redundant_case(const LayoutPlan& layout, PinPolicy policy) {
  if (layout.layout == BatchLayout::custom && policy != PinPolicy::requested) {
    // Only the request differs: the framework does not recognise the class and leaves it pageable.
    return "a custom batch class holds the tuple's buffers: layout=tuple measures this";
  }
  if (policy == PinPolicy::per_member && framework_pins(layout.layout)) {
    return "the framework pins this batch member by member itself: pin=requested measures this";
  }
  if (policy == PinPolicy::packed && layout.buffers.size() == 1) {
    return "packing one buffer is pinning it: pin=requested measures this";
  }
  return std::nullopt;
}

}  // namespace h2d
