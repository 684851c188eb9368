#pragma once

#include <cstddef>
#include <vector>

#include "harness/core/preset.hpp"

namespace h2d {

// Host thread counts to sweep: powers of two up to `cores`, plus `cores` itself; quick runs
// 1 and `cores`.
std::vector<std::size_t> host_thread_counts(Preset preset, std::size_t cores);

// The cores this process may use (at least 1).
std::size_t usable_cores();

}  // namespace h2d
