#pragma once

#include <cstddef>
#include <mutex>
#include <stdexcept>
#include <string>

namespace h2d {

// A request for page-locked memory that would take more than the machine can spare.
class PinnedBudgetExceeded : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class PinnedBudget;

// Bytes held against a PinnedBudget; handed back when this goes out of scope.
class PinnedReservation {
 public:
  PinnedReservation() = default;
  PinnedReservation(PinnedBudget* budget, std::size_t bytes) : budget_(budget), bytes_(bytes) {}
  PinnedReservation(PinnedReservation&& other) noexcept;
  PinnedReservation& operator=(PinnedReservation&& other) noexcept;
  PinnedReservation(const PinnedReservation&) = delete;
  PinnedReservation& operator=(const PinnedReservation&) = delete;
  ~PinnedReservation();

  std::size_t bytes() const { return bytes_; }

 private:
  void release() noexcept;
  PinnedBudget* budget_ = nullptr;
  std::size_t bytes_ = 0;
};

// Caps how much host memory h2dbench pins at once. Pinned pages cannot be swapped or reclaimed,
// so pinning too much starves the rest of the machine (a failure data loaders are known for).
// Pure bookkeeping: the CUDA allocations ask it first.
class PinnedBudget {
 public:
  // `origin` explains where the limit came from, for the error message.
  PinnedBudget(std::size_t limit, std::string origin);

  // Throws PinnedBudgetExceeded, naming `what`, when `bytes` more would pass the limit.
  PinnedReservation reserve(std::size_t bytes, const std::string& what);

  std::size_t limit() const { return limit_; }
  std::size_t in_use() const;
  const std::string& origin() const { return origin_; }

 private:
  friend class PinnedReservation;
  void give_back(std::size_t bytes) noexcept;

  std::size_t limit_;
  std::string origin_;
  mutable std::mutex mutex_;
  std::size_t in_use_ = 0;
};

// The process-wide budget: by default half of the memory available when first asked, or what
// set_pinned_limit() said (the --pinned-limit flag).
PinnedBudget& pinned_budget();
void set_pinned_limit(std::size_t bytes);

}  // namespace h2d
