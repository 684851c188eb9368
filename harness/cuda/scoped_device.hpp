#pragma once

namespace h2d {

// Makes `ordinal` the calling thread's current device and restores the previous one on exit.
class ScopedDevice {
 public:
  explicit ScopedDevice(int ordinal);
  ScopedDevice(const ScopedDevice&) = delete;
  ScopedDevice& operator=(const ScopedDevice&) = delete;
  ~ScopedDevice();

 private:
  int previous_ = 0;
};

}  // namespace h2d
