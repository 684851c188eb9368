#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "harness/decode/turbojpeg_handle.hpp"

namespace h2d {

// Encodes 8-bit RGB (H×W×3) into baseline JPEG with 4:2:0 chroma subsampling (what cameras,
// Pillow and OpenCV write by default) with libjpeg-turbo.
class JpegEncoder {
 public:
  JpegEncoder();
  // Throws std::runtime_error with TurboJPEG's message.
  std::vector<std::uint8_t> encode_rgb(const std::uint8_t* rgb, std::size_t width,
                                       std::size_t height, int quality);

 private:
  TurboJpegHandle handle_;
};

}  // namespace h2d
