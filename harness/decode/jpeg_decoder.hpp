#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "harness/decode/decode_speed.hpp"
#include "harness/decode/turbojpeg_handle.hpp"

namespace h2d {

// A file TurboJPEG could not decode (corrupt, truncated, not a JPEG, a colour space without RGB).
class JpegError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct JpegHeader {
  std::size_t width = 0;
  std::size_t height = 0;
  std::size_t rgb_bytes() const { return width * height * 3; }
};

// Decodes JPEG bytes into 8-bit RGB (H×W×3) with libjpeg-turbo. One per thread.
class JpegDecoder {
 public:
  JpegDecoder();

  // Throws JpegError with TurboJPEG's message when `data` has no readable JPEG header.
  JpegHeader header(const std::uint8_t* data, std::size_t size);
  // Decodes into `rgb` (header(...).rgb_bytes() bytes). Throws JpegError on any error or warning
  // (a truncated file decodes with a warning and grey rows: that is not an image to time).
  void decode_rgb(const std::uint8_t* data, std::size_t size, const JpegHeader& header,
                  std::uint8_t* rgb, DecodeSpeed speed);

 private:
  TurboJpegHandle handle_;
};

}  // namespace h2d
