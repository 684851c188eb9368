#pragma once

#include <cstddef>
#include <string>

#include "harness/cuda/host_memory.hpp"
#include "harness/cuda/numa_host_buffer.hpp"

namespace h2d {

// Page-locked host memory for copies to one GPU: on the GPU's NUMA node where that can be done
// here (NumaHostBuffer), else portable pinned memory wherever the system puts it, with the reason.
// Either way every GPU's copies see it as pinned. Move-only.
class LocalPinnedBuffer {
 public:
  // `numa_node` -1: not known, so not placed.
  LocalPinnedBuffer(std::size_t bytes, int numa_node);

  std::byte* data() const { return placed_.data() != nullptr ? placed_.data() : fallback_.data(); }
  std::size_t size() const { return bytes_; }
  // On the node asked for (checked where the kernel can tell).
  bool numa_placed() const { return placed_.data() != nullptr; }
  const std::string& why_not_placed() const { return why_not_; }

 private:
  std::size_t bytes_;
  NumaHostBuffer placed_;
  HostBuffer fallback_;
  std::string why_not_;
};

}  // namespace h2d
