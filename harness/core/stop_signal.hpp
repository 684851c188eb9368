#pragma once

#include <stdexcept>

namespace h2d {

// Ctrl-C (SIGINT) and SIGTERM ask a run to stop at the next safe point: between cases, and inside
// a pipeline case at once (its watchdog polls the flag). The report of what completed is still
// written. A second signal ends the process the usual way, for when something does not stop,
// unless it comes within a second of the first: then it is the same request (`timeout -s INT`
// delivers its signal twice).
class StopSignalScope {
 public:
  // Installs the handlers; the previous ones come back on destruction.
  StopSignalScope();
  StopSignalScope(const StopSignalScope&) = delete;
  StopSignalScope& operator=(const StopSignalScope&) = delete;
  ~StopSignalScope();
};

// Whether a stop was asked for (by a signal or request_stop()). Lock-free: callable anywhere.
bool stop_requested() noexcept;
// Who asked: "SIGINT (Ctrl-C)", "SIGTERM", or "a stop request" (request_stop()).
const char* stop_requester() noexcept;
void request_stop() noexcept;
void clear_stop_request() noexcept;

// The reason recorded for a case that never started because the run was interrupted first; the
// verdict then says its family was not run rather than that it measured nothing.
inline constexpr char kInterruptedBeforeCase[] =
    "the run was interrupted before this case completed";

// A case that stopped because the run was interrupted: reported as skipped, not failed.
class RunInterrupted : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace h2d
