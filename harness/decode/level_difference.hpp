#pragma once

#include <cstddef>
#include <cstdint>

namespace h2d {

// How far two decodes of the same JPEG are apart, in 8-bit levels: nvJPEG's and libjpeg-turbo's
// IDCTs and chroma upsampling differ by a few levels, so their pixels never match exactly.
struct LevelDifference {
  int max = 0;
  double mean = 0;
};
LevelDifference compare_levels(const std::uint8_t* a, const std::uint8_t* b, std::size_t bytes);

// The provisional bound on the mean difference of nvJPEG's pixels from libjpeg-turbo's accurate
// decode: not a measured figure (none has been measured yet, docs/decode.md), but far below what a
// broken decode gives (a wrong layout, swapped channels or garbage is off by tens of levels).
inline constexpr double kProvisionalMeanLevels = 2.0;

}  // namespace h2d
