#include "harness/pipeline/slot_pool.hpp"

#include <utility>

namespace h2d {

SlotPool::SlotPool(std::string name, std::size_t slots, FenceWait fence_wait)
    : free_(std::move(name), slots), fence_wait_(std::move(fence_wait)) {
  for (std::size_t slot = 0; slot < slots; ++slot) {
    free_.push(slot);
  }
}

std::optional<std::size_t> SlotPool::acquire() {
  std::optional<std::size_t> slot = free_.pop();
  if (slot && fence_wait_ && !fence_wait_(*slot)) {
    return std::nullopt;
  }
  return slot;
}

void SlotPool::release(std::size_t slot) {
  free_.push(slot);
}

void SlotPool::cancel() {
  free_.cancel();
}

}  // namespace h2d
