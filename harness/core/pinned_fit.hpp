#pragma once

#include <cstddef>
#include <string>

namespace h2d {

// Throws PinnedBudgetExceeded (the case is skipped with the reason) when `bytes` more page-locked
// memory would not fit the pinned budget now. Called before a case allocates and fills anything,
// so a case that cannot run says so at once; the allocations are charged again as they happen.
void require_pinned_fits(std::size_t bytes, const std::string& what);

}  // namespace h2d
