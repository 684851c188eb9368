#include "harness/host/host_copy.hpp"

#include <algorithm>

namespace h2d {

double pinned_fraction(const std::vector<HostCopy>& copies, const PinnedProbe& is_pinned) {
  double total = 0;
  double pinned = 0;
  for (const HostCopy& copy : copies) {
    total += static_cast<double>(copy.bytes);
    if (is_pinned(copy.source)) {
      pinned += static_cast<double>(copy.bytes);
    }
  }
  return total > 0 ? pinned / total : 0;
}

bool latchable(const std::vector<HostCopy>& copies, const PinnedProbe& is_pinned) {
  return copies.size() <= kMaxLatchedCopies &&
         std::all_of(copies.begin(), copies.end(),
                     [&](const HostCopy& copy) { return is_pinned(copy.source); });
}

}  // namespace h2d
