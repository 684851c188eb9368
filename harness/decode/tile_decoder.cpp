#include "harness/decode/tile_decoder.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "harness/host/normalize.hpp"

namespace h2d {

std::vector<const JpegImage*> tile_images(const ImageSet& set, std::size_t tile) {
  std::vector<const JpegImage*> chosen = set.of_size(tile, tile);
  if (chosen.empty()) {
    for (const JpegImage& image : set.images) {
      chosen.push_back(&image);
    }
  }
  return chosen;
}

namespace {

const ImageSet& usable(const std::shared_ptr<const ImageSet>& set) {
  if (!set || set->images.empty()) {
    throw std::invalid_argument("decode=cpu needs an image set with at least one image");
  }
  return *set;
}

std::size_t largest_rgb_bytes(const std::vector<const JpegImage*>& images) {
  std::size_t largest = 0;
  for (const JpegImage* image : images) {
    largest = std::max(largest, image->header.rgb_bytes());
  }
  return largest;
}

}  // namespace

TileDecoder::TileDecoder(std::shared_ptr<const ImageSet> images, std::size_t tile)
    : set_(std::move(images)),
      chosen_(tile_images(usable(set_), tile)),
      tile_(tile),
      params_(make_normalize_params(imagenet_stats())),
      rgb_(largest_rgb_bytes(chosen_)),
      crop_(tile * tile * 3) {}

void TileDecoder::produce(std::byte* out, std::uint64_t id) {
  const JpegImage& image = *chosen_[id % chosen_.size()];
  const JpegHeader& header = image.header;
  decoder_.decode_rgb(image.bytes.data(), image.bytes.size(), header, rgb_.data(),
                      DecodeSpeed::accurate);
  const auto* rgb = rgb_.data();
  const bool whole = header.width == tile_ && header.height == tile_;
  if (!whole) {
    // The centre tile: source offsets where the image is larger, destination offsets (black
    // border) where it is smaller.
    std::fill(crop_.begin(), crop_.end(), std::uint8_t{0});
    const std::size_t rows = std::min(tile_, header.height);
    const std::size_t cols = std::min(tile_, header.width);
    const std::size_t src_y = (header.height - rows) / 2;
    const std::size_t src_x = (header.width - cols) / 2;
    const std::size_t dst_y = (tile_ - rows) / 2;
    const std::size_t dst_x = (tile_ - cols) / 2;
    for (std::size_t y = 0; y < rows; ++y) {
      std::memcpy(&crop_[((dst_y + y) * tile_ + dst_x) * 3],
                  rgb + ((src_y + y) * header.width + src_x) * 3, cols * 3);
    }
    rgb = crop_.data();
  }
  normalize_rows(rgb, reinterpret_cast<float*>(out), SampleShape{3, tile_, tile_}, params_, 0,
                 tile_);
}

}  // namespace h2d
