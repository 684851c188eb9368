#include "harness/core/pinned_fit.hpp"

#include "harness/core/pinned_budget.hpp"

namespace h2d {

void require_pinned_fits(std::size_t bytes, const std::string& what) {
  if (bytes > 0) {
    [[maybe_unused]] const PinnedReservation probe =
        pinned_budget().reserve(bytes, what);  // given back at once
  }
}

}  // namespace h2d
