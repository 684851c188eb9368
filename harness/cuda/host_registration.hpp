#pragma once

#include <cstddef>

#include "harness/core/pinned_budget.hpp"

namespace h2d {

// Page-locks memory the caller already owns (cudaHostRegister) for as long as this lives, so the
// DMA engine can read it in place; charged to pinned_budget() like every page-locked allocation.
// Move-only. The memory must outlive the registration.
class HostRegistration {
 public:
  HostRegistration() = default;
  // `flags` are cudaHostRegister flags (0 = cudaHostRegisterDefault).
  HostRegistration(void* data, std::size_t bytes, unsigned flags = 0);
  HostRegistration(HostRegistration&& other) noexcept;
  HostRegistration& operator=(HostRegistration&& other) noexcept;
  HostRegistration(const HostRegistration&) = delete;
  HostRegistration& operator=(const HostRegistration&) = delete;
  ~HostRegistration();

  // Unregisters now and reports a failure (the destructor cannot): use it where unregistering is
  // part of what is measured.
  void reset();
  bool active() const { return data_ != nullptr; }
  void* data() const { return data_; }
  std::size_t size() const { return bytes_; }

 private:
  void release() noexcept;
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
  PinnedReservation reservation_;
};

}  // namespace h2d
