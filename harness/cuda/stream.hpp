#pragma once

#include <cuda_runtime_api.h>

namespace h2d {

// RAII non-blocking CUDA stream on one device (it does not synchronize with the legacy default
// stream, so timing is not disturbed by unrelated work). Move-only.
class Stream {
 public:
  explicit Stream(int device);
  Stream(Stream&& other) noexcept;
  Stream& operator=(Stream&& other) noexcept;
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  ~Stream();

  cudaStream_t get() const { return stream_; }
  int device() const { return device_; }
  void synchronize() const;

 private:
  void release() noexcept;
  int device_ = 0;
  cudaStream_t stream_ = nullptr;
};

}  // namespace h2d
