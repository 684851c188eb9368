#include "harness/decode/turbojpeg_handle.hpp"

#include <turbojpeg.h>

#include <stdexcept>
#include <utility>

namespace h2d {

TurboJpegHandle::TurboJpegHandle(Kind kind)
    : handle_(kind == Kind::decompress ? tjInitDecompress() : tjInitCompress()) {
  if (handle_ == nullptr) {
    throw std::runtime_error(std::string("TurboJPEG: cannot create an instance: ") +
                             tjGetErrorStr2(nullptr));
  }
}

TurboJpegHandle::TurboJpegHandle(TurboJpegHandle&& other) noexcept
    : handle_(std::exchange(other.handle_, nullptr)) {}

TurboJpegHandle& TurboJpegHandle::operator=(TurboJpegHandle&& other) noexcept {
  std::swap(handle_, other.handle_);
  return *this;
}

TurboJpegHandle::~TurboJpegHandle() {
  if (handle_ != nullptr) {
    tjDestroy(handle_);
  }
}

std::string TurboJpegHandle::last_error() const {
  return tjGetErrorStr2(handle_);
}

}  // namespace h2d
