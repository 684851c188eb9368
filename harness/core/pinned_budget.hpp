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

  std::size_t limit() const;
  std::size_t in_use() const;
  std::string origin() const;

 private:
  friend class PinnedReservation;
  friend class ScopedPinnedLimit;
  void give_back(std::size_t bytes) noexcept;
  // A new limit; what is reserved stays reserved (a ScopedPinnedLimit's business).
  void change_limit(std::size_t limit, std::string origin);

  std::size_t limit_;
  std::string origin_;
  mutable std::mutex mutex_;
  std::size_t in_use_ = 0;
};

// The process-wide budget every pinned allocation is charged to: pinned pages are the machine's,
// whoever asks. Its limit is half of the memory available when first asked, or what the
// innermost live ScopedPinnedLimit says.
PinnedBudget& pinned_budget();

// --pinned-limit for as long as this lives (a run, a test): the process budget's limit is `bytes`,
// then what it was before. The budget itself (what is reserved) is untouched, so memory pinned
// before or during the scope is handed back to the same accountant.
class ScopedPinnedLimit {
 public:
  explicit ScopedPinnedLimit(std::size_t bytes);
  ScopedPinnedLimit(const ScopedPinnedLimit&) = delete;
  ScopedPinnedLimit& operator=(const ScopedPinnedLimit&) = delete;
  ~ScopedPinnedLimit();

 private:
  std::size_t previous_limit_;
  std::string previous_origin_;
};

}  // namespace h2d
