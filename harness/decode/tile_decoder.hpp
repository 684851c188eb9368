#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "harness/decode/decoded_pixels.hpp"
#include "harness/decode/image_set.hpp"
#include "harness/decode/jpeg_decoder.hpp"
#include "harness/host/normalize_params.hpp"

namespace h2d {

// The images a loader's samples come from: those of `tile` x `tile`, or all of `set` when none
// is. Sample `id` is image id % count of them.
std::vector<const JpegImage*> tile_images(const ImageSet& set, std::size_t tile);

// A loader worker's per-sample work with real images: decode a JPEG with libjpeg-turbo (accurate
// options, as Pillow and torchvision), take the centre `tile` x `tile` (padded with black where the
// image is smaller) and normalize it into float32 3 x tile x tile with ImageNet's statistics.
// Sample `id` is chosen by tile_images. One per worker thread.
class TileDecoder {
 public:
  // Throws std::invalid_argument when `images` is null or empty.
  TileDecoder(std::shared_ptr<const ImageSet> images, std::size_t tile);

  // Writes sample `id` (3 * tile * tile floats) at `out`.
  void produce(std::byte* out, std::uint64_t id);
  std::size_t images() const { return chosen_.size(); }

 private:
  std::shared_ptr<const ImageSet> set_;
  std::vector<const JpegImage*> chosen_;
  std::size_t tile_;
  JpegDecoder decoder_;
  NormalizeParams params_;
  DecodedPixels rgb_;  // placed as a large malloc block is: a worker's decode output
  std::vector<std::uint8_t> crop_;
};

}  // namespace h2d
