#pragma once

#include <cstddef>

#include "harness/core/pinned_budget.hpp"
#include "harness/cuda/host_memory.hpp"
#include "harness/cuda/host_registration.hpp"
#include "harness/host/huge_pages.hpp"

namespace h2d {

// A pageable or registered host buffer on huge pages (h2d/memory pages=huge): the pages as
// HugePageBuffer gets them, registered with cudaHostRegister for HostKind::registered (charged to
// the pinned budget first, as HostBuffer's are). Throws std::invalid_argument for another kind,
// CaseSkipped where the machine has no huge pages to give.
class HugeHostBuffer {
 public:
  HugeHostBuffer(HostKind kind, std::size_t bytes);

  std::byte* data() const { return pages_.data(); }
  const HugePageBuffer& pages() const { return pages_; }

 private:
  HugePageBuffer pages_;  // first made, last unmapped
  PinnedReservation reservation_;
  HostRegistration registration_;
};

}  // namespace h2d
