#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace h2d {

enum class WatchdogEvent {
  stalled,      // no kick() for the timeout
  interrupted,  // the `interrupted` predicate said so (Ctrl-C)
};

// The one thread of a pipeline run that never waits on the pipeline: it notices when no batch has
// completed for `timeout` (a stuck stage, a deadlock) or when the user asked to stop, and calls
// `fire` once, from its own thread, so the run can be shut down instead of hanging.
class Watchdog {
 public:
  using Seconds = std::chrono::duration<double>;
  using Fire = std::function<void(WatchdogEvent event, double idle_seconds)>;

  Watchdog(Seconds timeout, Fire fire, std::function<bool()> interrupted = {});
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;
  ~Watchdog();

  // Progress was made: the countdown starts again.
  void kick();
  // Ends the watch (idempotent). After it returns, `fire` is not running and will not run.
  void stop();
  bool fired() const;

 private:
  using Clock = std::chrono::steady_clock;
  void watch();

  const Seconds timeout_;
  const Fire fire_;
  const std::function<bool()> interrupted_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  Clock::time_point last_kick_;
  bool stopping_ = false;
  bool fired_ = false;
  std::thread thread_;
};

}  // namespace h2d
