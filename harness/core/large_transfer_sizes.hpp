#pragma once

#include <cstddef>
#include <vector>

#include "harness/core/preset.hpp"

namespace h2d {

// Sizes for the cases that ask what a link sustains (several GPUs at once, NUMA placement): large
// enough that the link, not the cost of each copy, decides. quick: 64 MiB; default: 4, 16, 64 and
// 256 MiB; full: 1 MiB to 1 GiB in powers of 4.
std::vector<std::size_t> large_transfer_sizes(Preset preset);

}  // namespace h2d
