#include "harness/core/large_transfer_sizes.hpp"

#include "harness/core/size_grid.hpp"

namespace h2d {

std::vector<std::size_t> large_transfer_sizes(Preset preset) {
  constexpr std::size_t kMiB = std::size_t{1} << 20;
  switch (preset) {
    case Preset::quick:
      return {64 * kMiB};
    case Preset::standard:
      return geometric_sizes(4 * kMiB, 256 * kMiB, 4);
    case Preset::full:
      return geometric_sizes(kMiB, 1024 * kMiB, 4);
  }
  return {64 * kMiB};
}

}  // namespace h2d
