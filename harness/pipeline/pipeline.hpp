#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/core/cancellation.hpp"
#include "harness/core/host_block.hpp"
#include "harness/pipeline/pipeline_config.hpp"
#include "harness/pipeline/step_engine.hpp"

namespace h2d {

struct ProcessLoader;

// When an epoch must end whether or not its batches are done; none: it runs to its end.
using EpochDeadline = std::optional<std::chrono::steady_clock::time_point>;

enum class PipelineStage { worker, pin, step };

// Fault injection for tests. `before_batch` runs in a stage's thread before it works on a batch;
// a hook that blocks until `cancel` fires makes that stage stuck, which the watchdog must report.
struct PipelineHooks {
  std::function<void(PipelineStage stage, std::uint64_t batch, const Cancellation& cancel)>
      before_batch;
};

enum class EpochEnd {
  completed,    // every batch went through the step
  stalled,      // the watchdog saw no batch complete for the timeout; `message` names the stage
  interrupted,  // Ctrl-C / SIGTERM (stop_requested())
  out_of_time,  // the deadline given to run_epoch passed (soak's --duration)
  failed,       // a stage threw: `error`
};
std::string_view to_string(EpochEnd end);

// What one epoch did, measured over its window: from the completion of the last warm-up batch to
// the last completion. Filled as far as the epoch got, whatever its end.
struct EpochResult {
  EpochEnd end = EpochEnd::completed;
  std::string message;        // why it ended early
  std::exception_ptr error;   // the exception that failed it
  std::size_t completed = 0;  // batches whose step finished
  std::size_t measured = 0;   // of those, after warm-up (the window's batches)
  double window_s = 0;
  double longest_gap_s = 0;         // the longest time without a completed batch, start included
  std::vector<double> host_wait_s;  // per measured step: how long it waited for its batch
  double worker_busy_s = 0;         // producing batches, all workers together, in the window
  double pin_busy_s = 0;            // the pin thread copying, in the window
  // worker=process: the main process receiving, mapping and touching batches, in the window, and
  // each such hand-off's time
  double handoff_busy_s = 0;
  std::vector<double> handoff_s;
  double copy_s = 0;               // host-to-device copies of the measured steps
  double compute_s = 0;            // the measured steps themselves
  std::uint64_t copied_bytes = 0;  // by the measured steps
  std::size_t verified = 0;        // batches whose checksums were compared
  std::size_t checksum_failures = 0;
  std::size_t lost_batches = 0;  // batches missing, duplicated, or come back with other ids
  std::string first_failure;
};

// A data-loader pipeline feeding a StepEngine:
//   workers (W threads, or W processes: see ProcessLoader and the receiver below) claim batch
//   numbers, take a free slot, produce the batch's samples (produce_tile) and their ids into it,
//   and queue it; pin=pin_thread: a pin thread copies each pageable batch into a free pinned slot;
//   the step thread pops batches (host_wait), submits copy + step to the engine on one of its
//   lanes, hands the slot back (refilled only after its copy completed), and retires the lane's
//   previous step, checking what it read back.
// worker=process: one receiving thread asks each worker process for `prefetch` batches ahead, as
// PyTorch's DataLoader does, takes each batch over (shared memory: receive, map, touch), pins it
// itself with pin=pin_thread (PyTorch's pin thread does both) and queues it for the step.
// Queues hold `prefetch` batches. A watchdog stops the epoch when no batch completes for
// config.watchdog, naming the stuck stage; Ctrl-C stops it too. Every blocking point can be
// cancelled, so an epoch always returns, with what it completed.
class Pipeline {
 public:
  // Allocates and touches the slots (pageable, and engine.make_pinned_slot() for the ring) and
  // attaches the engine to the slots it copies from. Throws PinnedBudgetExceeded when the ring
  // does not fit under the pinned cap.
  Pipeline(const PipelineConfig& config, StepEngine& engine, PipelineHooks hooks = {});
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;
  ~Pipeline();

  // Runs config.batches batches (new sample ids each epoch). Never throws for what happens in
  // the stages: the result says how it ended. With worker processes, throws std::logic_error
  // after an epoch that ended early (batches asked of the workers are still on their way).
  // At `deadline` the epoch stops as it would at Ctrl-C, and ends out_of_time.
  EpochResult run_epoch(EpochDeadline deadline = std::nullopt);

  std::size_t pageable_slots() const { return pageable_.size(); }
  std::size_t ring_slots() const { return ring_.size(); }
  // worker=process: worker `index`'s process id (for tests that kill one); -1 with threads.
  int worker_pid(std::size_t index) const;

 private:
  PipelineConfig config_;
  StepEngine& engine_;
  PipelineHooks hooks_;
  std::vector<HostBlock> pageable_;  // workers collate here (pin=none, pin_thread)
  std::vector<HostBlock> ring_;      // pinned slots (pin=pin_thread, pinned_ring, shared_pinned)
  std::unique_ptr<ProcessLoader> processes_;  // worker=process; declared last: stopped first
  std::uint64_t epochs_ = 0;
};

}  // namespace h2d
