#include "sim/runtime/memory_registry.hpp"

#include <mutex>

namespace h2d::sim {

bool Allocation::contains(const void* pointer, std::size_t length) const {
  const auto address = reinterpret_cast<std::uintptr_t>(pointer);
  return address >= base && address - base <= bytes && length <= bytes - (address - base);
}

bool MemoryRegistry::add(const Allocation& allocation) {
  std::unique_lock<std::shared_mutex> lock(mutex_);
  const auto next = by_base_.lower_bound(allocation.base);
  if (next != by_base_.end() && next->first < allocation.base + allocation.bytes) {
    return false;
  }
  if (next != by_base_.begin()) {
    const Allocation& before = std::prev(next)->second;
    if (before.base + before.bytes > allocation.base) {
      return false;
    }
  }
  by_base_.emplace(allocation.base, allocation);
  return true;
}

std::optional<Allocation> MemoryRegistry::remove(const void* base, MemoryKind kind) {
  std::unique_lock<std::shared_mutex> lock(mutex_);
  const auto found = by_base_.find(reinterpret_cast<std::uintptr_t>(base));
  if (found == by_base_.end() || found->second.kind != kind) {
    return std::nullopt;
  }
  Allocation allocation = found->second;
  by_base_.erase(found);
  return allocation;
}

std::optional<Allocation> MemoryRegistry::find(const void* pointer) const {
  const auto address = reinterpret_cast<std::uintptr_t>(pointer);
  std::shared_lock<std::shared_mutex> lock(mutex_);
  auto after = by_base_.upper_bound(address);
  if (after == by_base_.begin()) {
    return std::nullopt;
  }
  const Allocation& candidate = std::prev(after)->second;
  if (address < candidate.base + candidate.bytes) {
    return candidate;
  }
  return std::nullopt;
}

}  // namespace h2d::sim
