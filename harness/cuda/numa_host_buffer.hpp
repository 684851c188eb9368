#pragma once

#include <cstddef>
#include <string>

#include "harness/core/pinned_budget.hpp"

namespace h2d {

// Page-locked host memory on one NUMA node. The pages are bound with hwloc (hwloc_alloc_membind)
// and touched so they exist there, their location is checked where the kernel can tell, and then
// CUDA registers them as portable pinned memory (cudaHostRegister), so copies to any GPU treat
// them as pinned. Charged to pinned_budget(). Move-only.
//
// Placement that cannot be done here (a topology from HWLOC_XMLFILE, no such node, no memory
// binding, a binding the OS refuses, pages that landed elsewhere) throws CaseSkipped with the
// reason.
class NumaHostBuffer {
 public:
  NumaHostBuffer() = default;
  NumaHostBuffer(std::size_t bytes, int numa_node);
  NumaHostBuffer(NumaHostBuffer&& other) noexcept;
  NumaHostBuffer& operator=(NumaHostBuffer&& other) noexcept;
  NumaHostBuffer(const NumaHostBuffer&) = delete;
  NumaHostBuffer& operator=(const NumaHostBuffer&) = delete;
  ~NumaHostBuffer();

  std::byte* data() const { return data_; }
  std::size_t size() const { return bytes_; }
  int numa_node() const { return node_; }

 private:
  void release() noexcept;

  std::byte* data_ = nullptr;
  std::size_t bytes_ = 0;
  int node_ = -1;
  bool registered_ = false;
  PinnedReservation reservation_;
};

// Why memory cannot be placed on `numa_node` here, or empty when it can: the check
// NumaHostBuffer makes before allocating, for families that decide their cases up front.
std::string numa_placement_unavailable(int numa_node);

}  // namespace h2d
