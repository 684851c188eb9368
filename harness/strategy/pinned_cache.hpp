#pragma once

#include <cstddef>
#include <map>

#include "harness/cuda/host_memory.hpp"

namespace h2d {

// A caching pinned-host allocator of the kind data-loader frameworks use (PyTorch's
// CachingHostAllocator): a request is rounded up to a power of two (harness/core/pow2_rounding.hpp)
// and served from a free block of that size when there is one (a hit, no driver call), else freshly
// pinned with cudaMallocHost (a miss). Blocks given back are kept, never freed, until the cache
// goes away. What it shows: a hit costs nothing, a miss costs a pinning, and the rounding pins up
// to twice what was asked.
class PinnedCache {
 public:
  // A pinned buffer of round_up_pow2(bytes) bytes.
  HostBuffer take(std::size_t bytes);
  // Keeps `block` for a later take() of the same rounded size.
  void give_back(HostBuffer block);

  std::size_t hits() const { return hits_; }
  std::size_t misses() const { return misses_; }
  std::size_t cached_blocks() const { return free_.size(); }

 private:
  std::multimap<std::size_t, HostBuffer> free_;
  std::size_t hits_ = 0;
  std::size_t misses_ = 0;
};

}  // namespace h2d
