#include "harness/core/pinned_budget.hpp"

#include <fmt/format.h>

#include <memory>
#include <utility>

#include "harness/core/byte_size.hpp"
#include "harness/core/system_memory.hpp"

namespace h2d {

PinnedReservation::PinnedReservation(PinnedReservation&& other) noexcept
    : budget_(std::exchange(other.budget_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}

PinnedReservation& PinnedReservation::operator=(PinnedReservation&& other) noexcept {
  if (this != &other) {
    release();
    budget_ = std::exchange(other.budget_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

PinnedReservation::~PinnedReservation() {
  release();
}

void PinnedReservation::release() noexcept {
  if (budget_ != nullptr) {
    budget_->give_back(bytes_);
    budget_ = nullptr;
    bytes_ = 0;
  }
}

PinnedBudget::PinnedBudget(std::size_t limit, std::string origin)
    : limit_(limit), origin_(std::move(origin)) {}

PinnedReservation PinnedBudget::reserve(std::size_t bytes, const std::string& what) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (bytes > limit_ || in_use_ > limit_ - bytes) {
    throw PinnedBudgetExceeded(fmt::format(
        "pinning {} for {} would pass the pinned-memory cap of {} ({}); {} is pinned already",
        format_bytes(bytes), what, format_bytes(limit_), origin_, format_bytes(in_use_)));
  }
  in_use_ += bytes;
  return PinnedReservation(this, bytes);
}

std::size_t PinnedBudget::limit() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return limit_;
}

std::string PinnedBudget::origin() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return origin_;
}

void PinnedBudget::change_limit(std::size_t limit, std::string origin) {
  std::lock_guard<std::mutex> lock(mutex_);
  limit_ = limit;
  origin_ = std::move(origin);
}

std::size_t PinnedBudget::in_use() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return in_use_;
}

void PinnedBudget::give_back(std::size_t bytes) noexcept {
  std::lock_guard<std::mutex> lock(mutex_);
  in_use_ -= bytes;
}

PinnedBudget& pinned_budget() {
  static PinnedBudget budget = [] {
    const std::size_t available = available_memory_bytes();
    return PinnedBudget(available / 2,
                        fmt::format("half of the {} of memory available; --pinned-limit changes it",
                                    format_bytes(available)));
  }();
  return budget;
}

ScopedPinnedLimit::ScopedPinnedLimit(std::size_t bytes)
    : previous_limit_(pinned_budget().limit()), previous_origin_(pinned_budget().origin()) {
  pinned_budget().change_limit(bytes, "set by --pinned-limit");
}

ScopedPinnedLimit::~ScopedPinnedLimit() {
  pinned_budget().change_limit(previous_limit_, std::move(previous_origin_));
}

}  // namespace h2d
