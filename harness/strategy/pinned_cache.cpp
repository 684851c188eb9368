#include "harness/strategy/pinned_cache.hpp"

#include <stdexcept>
#include <utility>

#include "harness/core/pow2_rounding.hpp"

namespace h2d {

HostBuffer PinnedCache::take(std::size_t bytes) {
  const std::size_t rounded = round_up_pow2(bytes);
  const auto found = free_.find(rounded);
  if (found != free_.end()) {
    HostBuffer block = std::move(found->second);
    free_.erase(found);
    ++hits_;
    return block;
  }
  ++misses_;
  return HostBuffer(HostKind::pinned, rounded);
}

void PinnedCache::give_back(HostBuffer block) {
  if (block.data() == nullptr || block.kind() != HostKind::pinned) {
    throw std::invalid_argument("PinnedCache::give_back takes pinned blocks from take()");
  }
  const std::size_t size = block.size();
  free_.emplace(size, std::move(block));
}

}  // namespace h2d
