#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>

#include "harness/core/bounded_queue.hpp"

namespace h2d {

// The free list of a ring of batch buffers ("slots"). A slot handed back while a copy may still
// be reading it is not refilled before that copy has finished: acquire() waits on the slot's
// fence (a CUDA event, or the host stand-in's) after taking it off the list. That is what makes
// reusing pinned buffers with async copies safe.
class SlotPool {
 public:
  // Waits until nothing reads `slot` any more; false when the wait was cancelled.
  using FenceWait = std::function<bool(std::size_t slot)>;

  // Slots 0..slots-1 start free. Without `fence_wait`, a released slot is free at once.
  SlotPool(std::string name, std::size_t slots, FenceWait fence_wait = {});

  // Blocks until a slot is free and its fence has passed; nullopt when cancelled.
  std::optional<std::size_t> acquire();
  // Hands `slot` back; its fence (if any) must already be recorded.
  void release(std::size_t slot);
  // Wakes every acquire() with nullopt.
  void cancel();

  const std::string& name() const { return free_.name(); }
  std::size_t size() const { return free_.capacity(); }
  std::size_t available() const { return free_.size(); }

 private:
  BoundedQueue<std::size_t> free_;
  FenceWait fence_wait_;
};

}  // namespace h2d
