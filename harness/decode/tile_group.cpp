#include "harness/decode/tile_group.hpp"

#include <fmt/format.h>

#include <memory>

namespace h2d {

std::string TileGroup::key() const {
  return width == 0 ? "folder" : fmt::format("{}x{}", width, height);
}

std::vector<const JpegImage*> group_images(const ImageSet& set, const TileGroup& group) {
  if (group.width != 0) {
    return set.of_size(group.width, group.height);
  }
  std::vector<const JpegImage*> all;
  for (const JpegImage& image : set.images) {
    all.push_back(&image);
  }
  return all;
}

namespace {

std::vector<TileGroup> generated_groups() {
  std::vector<TileGroup> groups;
  for (std::size_t size : GeneratedTiles{}.sizes) {
    groups.push_back({size, size});
  }
  return groups;
}

}  // namespace

std::vector<TileGroup> tile_groups(const RunImages& images) {
  const std::shared_ptr<const ImageSet> loaded = images.used();
  if (loaded && !loaded->generated) {
    return {TileGroup{}};
  }
  return generated_groups();
}

std::vector<TileGroup> uniform_tile_groups(const RunImages& images) {
  const std::shared_ptr<const ImageSet> loaded = images.used();
  if (!loaded || loaded->generated) {
    return generated_groups();
  }
  ImageSize common;
  for (const ImageSize& size : loaded->sizes()) {
    if (size.count > common.count) {
      common = size;
    }
  }
  return {TileGroup{common.width, common.height}};
}

}  // namespace h2d
