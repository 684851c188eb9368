#pragma once

#include <string>

namespace h2d {

// A TurboJPEG instance (tjhandle), destroyed with its owner. One per thread: TurboJPEG handles
// are not thread-safe. Move-only.
class TurboJpegHandle {
 public:
  enum class Kind { decompress, compress };

  // Throws std::runtime_error with TurboJPEG's message when the instance cannot be made.
  explicit TurboJpegHandle(Kind kind);
  TurboJpegHandle(TurboJpegHandle&& other) noexcept;
  TurboJpegHandle& operator=(TurboJpegHandle&& other) noexcept;
  TurboJpegHandle(const TurboJpegHandle&) = delete;
  TurboJpegHandle& operator=(const TurboJpegHandle&) = delete;
  ~TurboJpegHandle();

  void* get() const { return handle_; }
  // TurboJPEG's message for the last call on this handle.
  std::string last_error() const;

 private:
  void* handle_ = nullptr;  // tjhandle, kept opaque so turbojpeg.h stays out of the headers
};

}  // namespace h2d
