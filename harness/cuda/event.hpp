#pragma once

#include <cuda_runtime_api.h>

namespace h2d {

// RAII CUDA event with timing enabled. Move-only. Events of different devices cannot be
// subtracted: elapsed_ms checks that both belong to the same device.
class Event {
 public:
  explicit Event(int device);
  Event(Event&& other) noexcept;
  Event& operator=(Event&& other) noexcept;
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  ~Event();

  void record(cudaStream_t stream) const;
  void synchronize() const;
  bool ready() const;
  cudaEvent_t get() const { return event_; }
  int device() const { return device_; }

 private:
  void release() noexcept;
  int device_ = 0;
  cudaEvent_t event_ = nullptr;
};

// Milliseconds from `start` to `stop`; both must be recorded and complete, on the same device.
double elapsed_ms(const Event& start, const Event& stop);

}  // namespace h2d
