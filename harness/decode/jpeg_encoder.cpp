#include "harness/decode/jpeg_encoder.hpp"

#include <turbojpeg.h>

#include <memory>
#include <stdexcept>

namespace h2d {

JpegEncoder::JpegEncoder() : handle_(TurboJpegHandle::Kind::compress) {}

std::vector<std::uint8_t> JpegEncoder::encode_rgb(const std::uint8_t* rgb, std::size_t width,
                                                  std::size_t height, int quality) {
  unsigned char* jpeg = nullptr;
  unsigned long size = 0;
  const int status =
      tjCompress2(handle_.get(), rgb, static_cast<int>(width), static_cast<int>(width * 3),
                  static_cast<int>(height), TJPF_RGB, &jpeg, &size, TJSAMP_420, quality, 0);
  const std::unique_ptr<unsigned char, void (*)(unsigned char*)> owned(jpeg, tjFree);
  if (status != 0) {
    throw std::runtime_error("TurboJPEG: cannot encode a tile: " + handle_.last_error());
  }
  return {jpeg, jpeg + size};
}

}  // namespace h2d
