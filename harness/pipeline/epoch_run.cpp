#include "harness/pipeline/epoch_run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstring>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

#include "harness/core/bounded_queue.hpp"
#include "harness/core/checksum.hpp"
#include "harness/core/stop_signal.hpp"
#include "harness/host/tile_sample.hpp"
#include "harness/pipeline/slot_pool.hpp"
#include "harness/pipeline/stage_board.hpp"
#include "harness/pipeline/watchdog.hpp"
#include "harness/trace/nvtx.hpp"

namespace h2d {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_between(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

// A batch on its way through the queues.
struct Ticket {
  std::uint64_t batch = 0;
  std::size_t slot = 0;  // in the pool of the stage that filled it last
  bool verify = false;
  std::vector<std::uint64_t> sums;  // per-sample checksums taken when produced (verify only)
};

using Interval = std::pair<Clock::time_point, Clock::time_point>;

// Time spent in `intervals` inside [from, to].
double busy_within(const std::vector<Interval>& intervals, Clock::time_point from,
                   Clock::time_point to) {
  double busy = 0;
  for (const auto& [start, end] : intervals) {
    const Clock::time_point clipped_start = std::max(start, from);
    const Clock::time_point clipped_end = std::min(end, to);
    if (clipped_end > clipped_start) {
      busy += seconds_between(clipped_start, clipped_end);
    }
  }
  return busy;
}

std::string describe_error(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "unknown exception";
  }
}

// One epoch: its queues, pools, threads and watchdog, built fresh so an epoch that was cancelled
// leaves nothing behind.
class EpochRun {
 public:
  EpochRun(const PipelineConfig& config, StepEngine& engine, const PipelineHooks& hooks,
           std::vector<HostBlock>& pageable, std::vector<HostBlock>& ring,
           std::uint64_t first_sample)
      : config_(config),
        layout_(config),
        engine_(engine),
        hooks_(hooks),
        pageable_(pageable),
        ring_(ring),
        first_sample_(first_sample),
        ready_("ready", config.prefetch),
        workers_left_(config.workers),
        seen_(config.batches, false) {
    const auto engine_fence = [this](std::size_t slot) {
      return engine_.wait_slot_free(slot, cancel_);
    };
    if (config.pin == PinMode::pin_thread) {
      collated_.emplace("collated", config.prefetch);
    }
    if (!pageable_.empty()) {
      // Without a pin stage the engine copies straight out of these slots: fence them.
      pageable_pool_.emplace(
          "pageable slots", pageable_.size(),
          config.pin == PinMode::none ? SlotPool::FenceWait(engine_fence) : SlotPool::FenceWait());
    }
    if (!ring_.empty()) {
      ring_pool_.emplace("pinned slots", ring_.size(), engine_fence);
    }
    for (std::size_t i = 0; i < config.workers; ++i) {
      worker_stages_.push_back(board_.add(fmt::format("worker {}", i)));
    }
    worker_busy_.resize(config.workers);
    if (collated_) {
      pin_stage_ = board_.add("pin");
    }
    step_stage_ = board_.add("step");
  }

  EpochResult run() {
    start_ = Clock::now();
    last_completion_ = start_;
    window_start_ = start_;  // moved to the last warm-up completion when there is warm-up
    Watchdog watchdog(
        config_.watchdog,
        [this](WatchdogEvent event, double idle_s) {
          if (event == WatchdogEvent::stalled) {
            std::string why;
            try {
              why = diagnose(idle_s);
            } catch (...) {  // the watchdog thread must not throw; stopping matters more
              why = "no batch completed for the watchdog's timeout";
            }
            stop(EpochEnd::stalled, std::move(why));
          } else {
            stop(EpochEnd::interrupted,
                 fmt::format("interrupted by {} after {} of {} batches", stop_requester(),
                             completed_.load(), config_.batches));
          }
        },
        [] { return stop_requested(); });
    watchdog_ = &watchdog;

    std::vector<std::thread> threads;
    try {
      for (std::size_t i = 0; i < config_.workers; ++i) {
        threads.emplace_back([this, i] { guarded([&] { worker(i); }); });
      }
      if (collated_) {
        threads.emplace_back([this] { guarded([&] { pin_loop(); }); });
      }
    } catch (...) {
      fail(std::current_exception());  // could not start a thread: cancel the ones that did
    }
    guarded([&] { step_loop(); });
    for (std::thread& thread : threads) {
      thread.join();
    }
    watchdog.stop();
    watchdog_ = nullptr;
    return finish();
  }

 private:
  template <typename Body>
  void guarded(Body&& body) {
    try {
      body();
    } catch (...) {
      fail(std::current_exception());
    }
  }

  void fail(std::exception_ptr error) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!error_) {
        error_ = error;
      }
    }
    stop(EpochEnd::failed, describe_error(error));
  }

  // Records how the epoch ended; the first to call wins. False when it had ended already.
  bool settle(EpochEnd end, std::string message) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (end_) {
      return false;
    }
    end_ = end;
    message_ = std::move(message);
    return true;
  }

  // Ends the epoch early (the first reason wins) and releases everything that could block.
  void stop(EpochEnd end, std::string message) {
    if (!settle(end, std::move(message))) {
      return;
    }
    cancel_.cancel();
    ready_.cancel();
    if (collated_) {
      collated_->cancel();
    }
    if (pageable_pool_) {
      pageable_pool_->cancel();
    }
    if (ring_pool_) {
      ring_pool_->cancel();
    }
  }

  void run_hook(PipelineStage stage, std::uint64_t batch) {
    if (hooks_.before_batch) {
      hooks_.before_batch(stage, batch, cancel_);
    }
  }

  SlotPool& worker_pool() {
    return config_.pin == PinMode::pinned_ring ? *ring_pool_ : *pageable_pool_;
  }
  std::vector<HostBlock>& worker_buffers() {
    return config_.pin == PinMode::pinned_ring ? ring_ : pageable_;
  }
  // The pool whose slots the engine copies from.
  SlotPool& feed_pool() { return config_.pin == PinMode::none ? *pageable_pool_ : *ring_pool_; }
  BoundedQueue<Ticket>& worker_output() { return collated_ ? *collated_ : ready_; }

  // Produces batch `batch` into `slot`: samples, their ids, and (verified batches) checksums.
  // False when cancelled.
  bool produce_batch(std::byte* slot, Ticket& ticket, std::size_t stage) {
    {
      NvtxRange range(NvtxCategory::collate, fmt::format("batch {}", ticket.batch),
                      layout_.host_bytes());
      for (std::size_t i = 0; i < layout_.batch_size; ++i) {
        const std::uint64_t id = sample_id(ticket.batch, i);
        if (!produce_tile(slot + i * layout_.sample_bytes, config_.seed, id, config_.channels,
                          config_.tile, config_.sample_us, cancel_)) {
          return false;
        }
        std::memcpy(slot + layout_.ids_offset() + i * sizeof(id), &id, sizeof(id));
      }
    }
    if (ticket.verify) {
      board_.set(stage, StageState::working, fmt::format("checksumming batch {}", ticket.batch));
      NvtxRange range(NvtxCategory::verify, "batch checksums");
      ticket.sums.resize(layout_.batch_size);
      for (std::size_t i = 0; i < layout_.batch_size; ++i) {
        ticket.sums[i] = host_checksum(slot + i * layout_.sample_bytes, layout_.sample_bytes);
      }
    }
    return true;
  }

  std::uint64_t sample_id(std::uint64_t batch, std::size_t index) const {
    return first_sample_ + batch * layout_.batch_size + index;
  }

  void worker(std::size_t index) {
    nvtx_name_this_thread(fmt::format("worker {}", index));
    const std::size_t stage = worker_stages_[index];
    SlotPool& pool = worker_pool();
    BoundedQueue<Ticket>& out = worker_output();
    while (!cancel_.cancelled()) {
      const std::uint64_t batch = next_batch_.fetch_add(1);
      if (batch >= config_.batches) {
        break;
      }
      board_.set(stage, StageState::waiting_slot,
                 fmt::format("batch {}: free slot in '{}'", batch, pool.name()));
      const std::optional<std::size_t> slot = pool.acquire();
      if (!slot) {
        break;
      }
      board_.set(stage, StageState::working, fmt::format("producing batch {}", batch));
      const Clock::time_point start = Clock::now();
      run_hook(PipelineStage::worker, batch);
      Ticket ticket{batch, *slot, config_.verifies(batch), {}};
      if (cancel_.cancelled() || !produce_batch(worker_buffers()[*slot].data(), ticket, stage)) {
        break;
      }
      worker_busy_[index].emplace_back(start, Clock::now());
      board_.set(stage, StageState::waiting_output,
                 fmt::format("batch {}: push to '{}'", batch, out.name()));
      if (!out.push(std::move(ticket))) {
        break;
      }
    }
    board_.set(stage, StageState::done);
    if (workers_left_.fetch_sub(1) == 1) {
      out.close();
    }
  }

  void pin_loop() {
    nvtx_name_this_thread("pin");
    while (true) {
      board_.set(pin_stage_, StageState::waiting_input, "pop from 'collated'");
      std::optional<Ticket> ticket = collated_->pop();
      if (!ticket) {
        break;
      }
      board_.set(pin_stage_, StageState::waiting_slot,
                 fmt::format("batch {}: free slot in '{}'", ticket->batch, ring_pool_->name()));
      const std::optional<std::size_t> slot = ring_pool_->acquire();
      if (!slot) {
        break;
      }
      board_.set(pin_stage_, StageState::working, fmt::format("pinning batch {}", ticket->batch));
      const Clock::time_point start = Clock::now();
      run_hook(PipelineStage::pin, ticket->batch);
      if (cancel_.cancelled()) {
        break;
      }
      {
        NvtxRange range(NvtxCategory::pin, fmt::format("pin batch {}", ticket->batch),
                        layout_.host_bytes());
        std::memcpy(ring_[*slot].data(), pageable_[ticket->slot].data(), layout_.host_bytes());
      }
      pin_busy_.emplace_back(start, Clock::now());
      pageable_pool_->release(ticket->slot);
      ticket->slot = *slot;
      board_.set(pin_stage_, StageState::waiting_output,
                 fmt::format("batch {}: push to 'ready'", ticket->batch));
      if (!ready_.push(std::move(*ticket))) {
        break;
      }
    }
    board_.set(pin_stage_, StageState::done);
    ready_.close();
  }

  struct InFlight {
    Ticket ticket;
    std::size_t step = 0;
  };

  void step_loop() {
    std::array<std::optional<InFlight>, kPipelineLanes> lanes;
    std::size_t step = 0;
    while (true) {
      const std::size_t lane = step % kPipelineLanes;
      if (lanes[lane] && !retire(lane, lanes[lane])) {
        return;
      }
      board_.set(step_stage_, StageState::waiting_input, "pop from 'ready'");
      const Clock::time_point wait_start = Clock::now();
      std::optional<Ticket> ticket = ready_.pop();
      const double waited = seconds_between(wait_start, Clock::now());
      if (!ticket) {
        if (cancel_.cancelled()) {
          return;
        }
        break;  // closed: every batch has been delivered
      }
      if (step >= config_.warmup) {
        host_wait_s_.push_back(waited);
      }
      board_.set(step_stage_, StageState::working,
                 fmt::format("submitting batch {} (lane {})", ticket->batch, lane));
      run_hook(PipelineStage::step, ticket->batch);
      if (cancel_.cancelled()) {
        return;
      }
      StepJob job;
      job.slot = ticket->slot;
      job.batch = ticket->batch;
      job.read_back = config_.loop == LoopKind::predict || ticket->verify;
      engine_.submit(lane, job);
      feed_pool().release(ticket->slot);
      lanes[lane] = InFlight{std::move(*ticket), step};
      ++step;
    }
    for (std::size_t k = 0; k < kPipelineLanes; ++k) {  // oldest first
      const std::size_t lane = (step + k) % kPipelineLanes;
      if (lanes[lane] && !retire(lane, lanes[lane])) {
        return;
      }
    }
    board_.set(step_stage_, StageState::done);
    settle(EpochEnd::completed, {});  // a watchdog firing during the joins cannot undo this
  }

  bool retire(std::size_t lane, std::optional<InFlight>& in_flight) {
    const Ticket& ticket = in_flight->ticket;
    board_.set(step_stage_, StageState::waiting_device,
               fmt::format("waiting for the step on batch {} (lane {})", ticket.batch, lane));
    const std::optional<StepOutputs> outputs = engine_.retire(lane, cancel_);
    if (!outputs) {
      return false;
    }
    const Clock::time_point now = Clock::now();
    longest_gap_s_ = std::max(longest_gap_s_, seconds_between(last_completion_, now));
    last_completion_ = now;
    check(ticket, *outputs);
    if (in_flight->step >= config_.warmup) {
      copy_s_ += outputs->copy_s;
      compute_s_ += outputs->compute_s;
      copied_bytes_ += layout_.host_bytes();
    }
    if (completed_.fetch_add(1) + 1 == config_.warmup) {  // warm-up done: the window opens
      window_start_ = now;
    }
    watchdog_->kick();
    in_flight.reset();
    return true;
  }

  void note_failure(std::size_t& counter, std::string what) {
    ++counter;
    if (first_failure_.empty()) {
      first_failure_ = std::move(what);
    }
  }

  // What came back must be what was sent: the batch once, its samples' ids in place, and (when
  // verified) the checksums the workers took.
  void check(const Ticket& ticket, const StepOutputs& outputs) {
    if (seen_[ticket.batch]) {
      note_failure(lost_, fmt::format("batch {} went through the step twice", ticket.batch));
    }
    seen_[ticket.batch] = true;
    for (std::size_t i = 0; i < outputs.ids.size(); ++i) {
      if (outputs.ids[i] != sample_id(ticket.batch, i)) {
        note_failure(lost_,
                     fmt::format("batch {}: sample {} came back with id {}, expected {} "
                                 "(stale or misplaced data)",
                                 ticket.batch, i, outputs.ids[i], sample_id(ticket.batch, i)));
        break;
      }
    }
    if (!ticket.verify) {
      return;
    }
    ++verified_;
    if (outputs.sums.size() != ticket.sums.size()) {
      note_failure(checksum_failures_,
                   fmt::format("batch {}: the step returned no checksums", ticket.batch));
      return;
    }
    for (std::size_t i = 0; i < ticket.sums.size(); ++i) {
      if (outputs.sums[i] != ticket.sums[i]) {
        note_failure(checksum_failures_,
                     fmt::format("batch {}: sample {} arrived with checksum {:#x}, sent {:#x}",
                                 ticket.batch, i, outputs.sums[i], ticket.sums[i]));
        break;
      }
    }
  }

  // The watchdog's report: what every stage does, the queues and pools, and the likely culprit.
  std::string diagnose(double idle_s) const {
    const std::vector<StageBoard::Entry> stages = board_.snapshot();
    std::string text = fmt::format(
        "no batch completed for {:.1f} s (watchdog {:g} s), {} of {} "
        "batches done; ",
        idle_s, config_.watchdog.count(), completed_.load(), config_.batches);
    if (const StageBoard::Entry* stuck = stuck_stage(stages)) {
      text += fmt::format("stuck stage: '{}' ({}: {}) for {:.1f} s", stuck->name,
                          to_string(stuck->state), stuck->detail, stuck->seconds_in_state);
    } else {
      text += "no stage is working: each waits on another (a deadlock)";
    }
    text += "; stages:";
    for (const StageBoard::Entry& entry : stages) {
      text += fmt::format(" {} {} ({}) {:.1f} s;", entry.name, to_string(entry.state), entry.detail,
                          entry.seconds_in_state);
    }
    text += " queues:";
    if (collated_) {
      text += fmt::format(" collated {}/{},", collated_->size(), collated_->capacity());
    }
    text += fmt::format(" ready {}/{}; free slots:", ready_.size(), ready_.capacity());
    if (pageable_pool_) {
      text += fmt::format(" pageable {}/{}", pageable_pool_->available(), pageable_pool_->size());
    }
    if (ring_pool_) {
      text += fmt::format(" pinned {}/{}", ring_pool_->available(), ring_pool_->size());
    }
    return text;
  }

  EpochResult finish() {
    EpochResult result;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      result.end = end_.value_or(EpochEnd::completed);
      result.message = message_;
      result.error = error_;
    }
    if (result.end != EpochEnd::completed) {
      engine_.quiesce();  // steps may still be in flight: let them finish before slots are reused
      longest_gap_s_ = std::max(longest_gap_s_, seconds_between(last_completion_, Clock::now()));
    } else {
      for (std::size_t batch = 0; batch < seen_.size(); ++batch) {
        if (!seen_[batch]) {
          note_failure(lost_, fmt::format("batch {} never went through the step", batch));
        }
      }
    }
    result.completed = completed_.load();
    result.longest_gap_s = longest_gap_s_;
    if (result.completed > config_.warmup) {
      result.measured = result.completed - config_.warmup;
      result.window_s = seconds_between(window_start_, last_completion_);
      for (const auto& intervals : worker_busy_) {
        result.worker_busy_s += busy_within(intervals, window_start_, last_completion_);
      }
      result.pin_busy_s = busy_within(pin_busy_, window_start_, last_completion_);
    }
    result.host_wait_s = std::move(host_wait_s_);
    result.copy_s = copy_s_;
    result.compute_s = compute_s_;
    result.copied_bytes = copied_bytes_;
    result.verified = verified_;
    result.checksum_failures = checksum_failures_;
    result.lost_batches = lost_;
    result.first_failure = first_failure_;
    return result;
  }

  const PipelineConfig& config_;
  const BatchLayout layout_;
  StepEngine& engine_;
  const PipelineHooks& hooks_;
  std::vector<HostBlock>& pageable_;
  std::vector<HostBlock>& ring_;
  const std::uint64_t first_sample_;

  Cancellation cancel_;
  StageBoard board_;
  std::optional<BoundedQueue<Ticket>> collated_;
  BoundedQueue<Ticket> ready_;
  std::optional<SlotPool> pageable_pool_;
  std::optional<SlotPool> ring_pool_;
  std::vector<std::size_t> worker_stages_;
  std::size_t pin_stage_ = 0;
  std::size_t step_stage_ = 0;
  Watchdog* watchdog_ = nullptr;

  std::atomic<std::uint64_t> next_batch_{0};
  std::atomic<std::size_t> workers_left_;
  std::atomic<std::size_t> completed_{0};

  // Each written by one thread and read after the joins.
  std::vector<std::vector<Interval>> worker_busy_;  // [worker]
  std::vector<Interval> pin_busy_;
  // The step thread's.
  Clock::time_point start_;
  Clock::time_point last_completion_;
  Clock::time_point window_start_;
  double longest_gap_s_ = 0;
  std::vector<double> host_wait_s_;
  double copy_s_ = 0;
  double compute_s_ = 0;
  std::uint64_t copied_bytes_ = 0;
  std::vector<bool> seen_;
  std::size_t verified_ = 0;
  std::size_t checksum_failures_ = 0;
  std::size_t lost_ = 0;
  std::string first_failure_;

  mutable std::mutex mutex_;  // guards the end of the epoch
  std::optional<EpochEnd> end_;
  std::string message_;
  std::exception_ptr error_;
};

}  // namespace

EpochResult run_pipeline_epoch(const PipelineConfig& config, StepEngine& engine,
                               const PipelineHooks& hooks, std::vector<HostBlock>& pageable,
                               std::vector<HostBlock>& ring, std::uint64_t first_sample) {
  EpochRun run(config, engine, hooks, pageable, ring, first_sample);
  return run.run();
}

}  // namespace h2d
