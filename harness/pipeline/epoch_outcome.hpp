#pragma once

#include <exception>
#include <mutex>
#include <optional>
#include <string>

#include "harness/pipeline/pipeline.hpp"

namespace h2d {

// How an epoch ended. Any stage's thread, the watchdog and the step thread's completion may each
// try to settle it; the first wins and the later ones learn that they came too late. Thread-safe.
class EpochOutcome {
 public:
  // Records `end` and its message unless the epoch had ended already; true when this call ended
  // it (the caller then releases whatever could block).
  bool settle(EpochEnd end, std::string message);
  // A stage threw: keeps the first exception, and settles the epoch as failed with its message.
  bool fail(std::exception_ptr error);
  // end (completed when nothing settled it), message and error.
  void write_to(EpochResult& result) const;

 private:
  mutable std::mutex mutex_;
  std::optional<EpochEnd> end_;
  std::string message_;
  std::exception_ptr error_;
};

}  // namespace h2d
