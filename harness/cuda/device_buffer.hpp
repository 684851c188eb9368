#pragma once

#include <cstddef>

namespace h2d {

// RAII cudaMalloc on one device. Move-only.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(int device, std::size_t bytes);
  DeviceBuffer(DeviceBuffer&& other) noexcept;
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer();

  std::byte* data() const { return data_; }
  std::size_t size() const { return bytes_; }
  int device() const { return device_; }

 private:
  void release() noexcept;
  int device_ = 0;
  std::byte* data_ = nullptr;
  std::size_t bytes_ = 0;
};

}  // namespace h2d
