#include "harness/core/size_grid.hpp"

#include <stdexcept>

namespace h2d {

namespace {
constexpr std::size_t KiB = std::size_t{1} << 10;
constexpr std::size_t MiB = std::size_t{1} << 20;
constexpr std::size_t GiB = std::size_t{1} << 30;
}  // namespace

std::vector<std::size_t> geometric_sizes(std::size_t first, std::size_t last, std::size_t factor) {
  if (first == 0 || first > last || factor < 2) {
    throw std::invalid_argument("geometric_sizes needs 0 < first <= last and factor >= 2");
  }
  std::vector<std::size_t> sizes;
  for (std::size_t size = first; size <= last; size *= factor) {
    sizes.push_back(size);
    if (size > last / factor) {
      break;
    }
  }
  return sizes;
}

std::vector<std::size_t> transfer_sizes(Preset preset) {
  switch (preset) {
    case Preset::quick:
      return {4 * KiB, 1 * MiB, 64 * MiB};
    case Preset::standard:
      return geometric_sizes(4 * KiB, 1 * GiB, 4);
    case Preset::full:
      return geometric_sizes(4 * KiB, 1 * GiB, 2);
  }
  return {};
}

}  // namespace h2d
