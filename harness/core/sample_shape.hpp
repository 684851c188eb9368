#pragma once

#include <cstddef>
#include <string>

namespace h2d {

// The shape of one image sample, as a segmentation data set holds it: C channels of H×W pixels
// (robosat's tiles are 3×512×512).
struct SampleShape {
  std::size_t channels = 3;
  std::size_t height = 512;
  std::size_t width = 512;

  std::size_t pixels() const { return height * width; }
  std::size_t values() const { return channels * height * width; }
};

// "3x512x512", for case names and messages.
std::string to_string(const SampleShape& shape);

}  // namespace h2d
