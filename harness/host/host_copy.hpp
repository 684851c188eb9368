#pragma once

#include <cstddef>
#include <functional>
#include <vector>

namespace h2d {

// One host-to-device copy of a batch: `bytes` from `source` to `device_offset` in the batch's
// device block.
struct HostCopy {
  const std::byte* source = nullptr;
  std::size_t device_offset = 0;
  std::size_t bytes = 0;
};

// Whether CUDA reports a host address as page-locked; actual_kind() on a GPU machine, injected so
// the arithmetic below is testable anywhere.
using PinnedProbe = std::function<bool(const void*)>;

// The share of the copied bytes whose host memory really is page-locked (0 for no copies). A
// policy that believes it pinned and did not shows 0 here.
double pinned_fraction(const std::vector<HostCopy>& copies, const PinnedProbe& is_pinned);

// Copies may wait behind a stream latch only if every source is page-locked (a pageable copy
// synchronizes the stream first and would deadlock) and there are few enough of them that the
// CUDA work queue cannot fill while the stream is blocked.
inline constexpr std::size_t kMaxLatchedCopies = 64;
bool latchable(const std::vector<HostCopy>& copies, const PinnedProbe& is_pinned);

}  // namespace h2d
