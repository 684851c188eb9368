#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "harness/decode/image_set.hpp"
#include "harness/decode/run_images.hpp"

namespace h2d {

// The images a decode case works on: one tile size of the set, or the whole folder (0x0).
struct TileGroup {
  std::size_t width = 0;
  std::size_t height = 0;
  // "256x256", or "folder" for the whole folder.
  std::string key() const;
};

// The images of `group` in `set`, in set order.
std::vector<const JpegImage*> group_images(const ImageSet& set, const TileGroup& group);

// host/decode's groups: each generated tile size, or the whole --images folder (sizes may differ).
std::vector<TileGroup> tile_groups(const RunImages& images);
// Groups of images of one size (a batch the GPU normalizes as one tensor): each generated tile
// size, or the most common size of the --images folder.
std::vector<TileGroup> uniform_tile_groups(const RunImages& images);

}  // namespace h2d
