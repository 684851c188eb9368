#include "harness/decode/jpeg_decoder.hpp"

#include <turbojpeg.h>

#include <limits>

namespace h2d {

JpegDecoder::JpegDecoder() : handle_(TurboJpegHandle::Kind::decompress) {}

JpegHeader JpegDecoder::header(const std::uint8_t* data, std::size_t size) {
  if (size == 0) {
    throw JpegError("empty file");
  }
  if (size > std::numeric_limits<unsigned long>::max()) {
    throw JpegError("file too large for TurboJPEG");
  }
  int width = 0;
  int height = 0;
  int subsampling = 0;
  int colorspace = 0;
  if (tjDecompressHeader3(handle_.get(), data, static_cast<unsigned long>(size), &width, &height,
                          &subsampling, &colorspace) != 0) {
    throw JpegError(handle_.last_error());
  }
  if (width <= 0 || height <= 0) {
    throw JpegError("the header gives no image size");
  }
  return {static_cast<std::size_t>(width), static_cast<std::size_t>(height)};
}

void JpegDecoder::decode_rgb(const std::uint8_t* data, std::size_t size, const JpegHeader& header,
                             std::uint8_t* rgb, DecodeSpeed speed) {
  const int width = static_cast<int>(header.width);
  const int height = static_cast<int>(header.height);
  if (tjDecompress2(handle_.get(), data, static_cast<unsigned long>(size), rgb, width,
                    /*pitch=*/width * 3, height, TJPF_RGB, turbojpeg_flags(speed)) != 0) {
    throw JpegError(handle_.last_error());
  }
}

}  // namespace h2d
