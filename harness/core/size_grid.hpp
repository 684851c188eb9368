#pragma once

#include <cstddef>
#include <vector>

#include "harness/core/preset.hpp"

namespace h2d {

// Geometric sizes from `first` to `last` inclusive, each `factor` times the previous.
// Throws std::invalid_argument unless 0 < first <= last and factor >= 2.
std::vector<std::size_t> geometric_sizes(std::size_t first, std::size_t last, std::size_t factor);

// Transfer sizes for the copy families: 4 KiB..1 GiB in powers of 4 (default), powers of 2
// (full), or a handful (quick).
std::vector<std::size_t> transfer_sizes(Preset preset);

}  // namespace h2d
