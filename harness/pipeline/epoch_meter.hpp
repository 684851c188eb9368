#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "harness/pipeline/pipeline.hpp"
#include "harness/pipeline/step_engine.hpp"

namespace h2d {

// The times an epoch's result is made of. The window runs from the completion of the last
// warm-up batch (the start, without warm-up) to the last completion; busy times count only inside
// it. Each worker and the pin thread write their own intervals, the step thread the rest, and the
// result is read after they joined, so nothing here needs a lock.
class EpochMeter {
 public:
  using Clock = std::chrono::steady_clock;

  explicit EpochMeter(std::size_t workers);

  // Before any stage's thread starts.
  void start(Clock::time_point now);
  void worker_busy(std::size_t worker, Clock::time_point from, Clock::time_point to);
  void pin_busy(Clock::time_point from, Clock::time_point to);
  using Interval = std::pair<Clock::time_point, Clock::time_point>;
  // worker=process: the main process received one batch over `receiving` and mapped (and touched)
  // it over `mapping` (empty with reused segments); the wait for a slot between them is no part of
  // the hand-off.
  void handoff(Interval receiving, Interval mapping);
  // A measured step waited from `from` to `to` for its batch.
  void host_wait(Clock::time_point from, Clock::time_point to);
  // A step completed at `now`; a measured one (after warm-up) adds its copy, compute and bytes.
  void step_completed(Clock::time_point now, const StepOutputs& outputs, bool measured,
                      std::uint64_t bytes);
  // The last warm-up step completed at `now`.
  void open_window(Clock::time_point now);
  // The epoch ended early at `now`: the time since the last completion is a gap too.
  void ended_early(Clock::time_point now);

  // longest_gap_s, host_wait_s, copy_s, compute_s, copied_bytes; and, when `window_has_batches`,
  // window_s, worker_busy_s, pin_busy_s, handoff_busy_s and handoff_s. Moves the host waits out.
  void write_to(EpochResult& result, bool window_has_batches);

 private:
  std::vector<std::vector<Interval>> worker_busy_;  // [worker]
  std::vector<Interval> pin_busy_;
  std::vector<Interval> handoffs_;       // receives and maps, for the busy share
  std::vector<Interval> handoff_spans_;  // per batch: receive start, map end (the window's)
  std::vector<double> handoff_s_;        // per batch: receive + map
  Clock::time_point last_completion_;
  Clock::time_point window_start_;
  double longest_gap_s_ = 0;
  std::vector<double> host_wait_s_;
  double copy_s_ = 0;
  double compute_s_ = 0;
  std::uint64_t copied_bytes_ = 0;
};

}  // namespace h2d
