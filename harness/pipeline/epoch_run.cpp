#include "harness/pipeline/epoch_run.hpp"

#include <fmt/format.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstring>
#include <optional>
#include <thread>
#include <utility>

#include "harness/core/bounded_queue.hpp"
#include "harness/core/checksum.hpp"
#include "harness/core/stop_signal.hpp"
#include "harness/decode/jpeg_decoder.hpp"
#include "harness/decode/tile_decoder.hpp"
#include "harness/host/team_memcpy.hpp"
#include "harness/host/thread_team.hpp"
#include "harness/host/tile_sample.hpp"
#include "harness/pipeline/batch_audit.hpp"
#include "harness/pipeline/batch_collation.hpp"
#include "harness/pipeline/batch_ticket.hpp"
#include "harness/pipeline/epoch_meter.hpp"
#include "harness/pipeline/epoch_outcome.hpp"
#include "harness/pipeline/jpeg_slot.hpp"
#include "harness/pipeline/process_loader.hpp"
#include "harness/pipeline/process_receiver.hpp"
#include "harness/pipeline/slot_layout.hpp"
#include "harness/pipeline/slot_pool.hpp"
#include "harness/pipeline/stage_board.hpp"
#include "harness/pipeline/stall_report.hpp"
#include "harness/pipeline/watchdog.hpp"
#include "harness/trace/nvtx.hpp"

namespace h2d {
namespace {

using Clock = EpochMeter::Clock;

// One epoch: its queues, pools, threads and watchdog, built fresh so an epoch that was cancelled
// leaves nothing behind.
class EpochRun {
 public:
  EpochRun(const PipelineConfig& config, StepEngine& engine, const PipelineHooks& hooks,
           std::vector<HostBlock>& pageable, std::vector<HostBlock>& ring, ProcessLoader* processes,
           std::uint64_t first_sample, EpochDeadline deadline)
      : config_(config),
        layout_(config),
        engine_(engine),
        hooks_(hooks),
        pageable_(pageable),
        ring_(ring),
        processes_(processes),
        deadline_(deadline),
        ids_{first_sample, layout_.batch_size},
        ready_("ready", config.prefetch),
        workers_left_(config.workers),
        audit_(config.batches, ids_),
        meter_(config.workers) {
    if (config.decode == DecodeMode::gpu) {
      jpeg_images_ = jpeg_slot_images(config);
      jpeg_layout_ = jpeg_slot_layout(jpeg_images_, config.batch_size);
    }
    const auto engine_fence = [this](std::size_t slot) {
      return engine_.wait_slot_free(slot, cancel_);
    };
    if (config.pin == PinMode::pin_thread && processes_ == nullptr) {
      collated_.emplace("collated", config.prefetch);
      if (config.pin_threads > 1) {
        pin_team_.emplace(config.pin_threads, "pin");
      }
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
    if (processes_ != nullptr) {
      receiver_stage_ = board_.add("receiver");
    } else {
      for (std::size_t i = 0; i < config.workers; ++i) {
        worker_stages_.push_back(board_.add(fmt::format("worker {}", i)));
      }
    }
    if (collated_) {
      pin_stage_ = board_.add("pin");
    }
    step_stage_ = board_.add("step");
  }

  EpochResult run() {
    meter_.start(Clock::now());
    Watchdog watchdog(
        config_.watchdog,
        [this](WatchdogEvent event, double idle_s) {
          if (event == WatchdogEvent::stalled) {
            std::string why;
            try {
              why = describe_stall(snapshot(idle_s));
            } catch (...) {  // the watchdog thread must not throw; stopping matters more
              why = "no batch completed for the watchdog's timeout";
            }
            stop(EpochEnd::stalled, std::move(why));
          } else if (stop_requested()) {
            stop(EpochEnd::interrupted,
                 fmt::format("interrupted by {} after {} of {} batches", stop_requester(),
                             completed_.load(), config_.batches));
          } else {
            stop(EpochEnd::out_of_time, fmt::format("the deadline passed after {} of {} batches",
                                                    completed_.load(), config_.batches));
          }
        },
        [this] { return stop_requested() || (deadline_ && Clock::now() >= *deadline_); });
    watchdog_ = &watchdog;

    std::vector<std::thread> threads;
    try {
      if (processes_ != nullptr) {
        threads.emplace_back([this] { guarded([&] { receiver_loop(); }); });
      }
      for (std::size_t i = 0; processes_ == nullptr && i < config_.workers; ++i) {
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
    } catch (const RunInterrupted& interrupted) {  // a stage saw the stop before the watchdog did
      stop(EpochEnd::interrupted, interrupted.what());
    } catch (...) {
      fail(std::current_exception());
    }
  }

  void fail(std::exception_ptr error) {
    if (outcome_.fail(std::move(error))) {
      release_all();
    }
  }

  // Ends the epoch early (the first reason wins) and releases everything that could block.
  void stop(EpochEnd end, std::string message) {
    if (outcome_.settle(end, std::move(message))) {
      release_all();
    }
  }

  void release_all() {
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

  // Whether the workers write straight into the ring the engine copies from.
  bool workers_fill_ring() const {
    return config_.pin == PinMode::pinned_ring || config_.pin == PinMode::shared_pinned;
  }
  SlotPool& worker_pool() { return workers_fill_ring() ? *ring_pool_ : *pageable_pool_; }
  std::vector<HostBlock>& worker_buffers() { return workers_fill_ring() ? ring_ : pageable_; }
  // The pool whose slots the engine copies from.
  SlotPool& feed_pool() { return config_.pin == PinMode::none ? *pageable_pool_ : *ring_pool_; }
  BoundedQueue<BatchTicket>& worker_output() { return collated_ ? *collated_ : ready_; }

  // decode=gpu: packs the JPEG bytes of batch `ticket.batch` into `slot`, undecoded, and (verified
  // batches) decodes the checked sample with libjpeg-turbo for the comparison with the GPU's.
  bool pack_jpeg_batch(std::byte* slot, BatchTicket& ticket, std::size_t stage,
                       JpegDecoder& decoder) {
    {
      NvtxRange range(NvtxCategory::collate, fmt::format("pack JPEG batch {}", ticket.batch));
      JpegSlotPacker packer(slot, *jpeg_layout_);
      for (std::size_t i = 0; i < layout_.batch_size; ++i) {
        const std::uint64_t id = ids_.of(ticket.batch, i);
        const JpegImage& image = *jpeg_images_[id % jpeg_images_.size()];
        packer.add(id, image.bytes.data(), image.bytes.size());
      }
      ticket.bytes = packer.used_bytes();
      ticket.bus_bytes = jpeg_layout_->ids_bytes() + packer.payload_bytes();
    }
    if (cancel_.cancelled()) {
      return false;
    }
    if (ticket.verify) {
      board_.set(stage, StageState::working,
                 fmt::format("decoding the checked sample of batch {}", ticket.batch));
      NvtxRange range(NvtxCategory::verify, "reference decode");
      const std::uint64_t id = ids_.of(ticket.batch, config_.checked_sample(ticket.batch));
      const JpegImage& image = *jpeg_images_[id % jpeg_images_.size()];
      ticket.reference.resize(image.header.rgb_bytes());
      decoder.decode_rgb(image.bytes.data(), image.bytes.size(), image.header,
                         ticket.reference.data(), DecodeSpeed::accurate);
    }
    return true;
  }

  // Produces batch `batch` into `slot`: samples (decoded by `decoder` with decode=cpu, else
  // synthesized), their ids, and (verified batches) checksums. False when cancelled.
  bool produce_batch(std::byte* slot, BatchTicket& ticket, std::size_t stage,
                     TileDecoder* decoder) {
    ticket.bytes = layout_.host_bytes();
    ticket.bus_bytes = layout_.host_bytes();
    {
      NvtxRange range(NvtxCategory::collate, fmt::format("batch {}", ticket.batch),
                      layout_.host_bytes());
      if (!collate_batch(config_, layout_, ids_, ticket.batch, slot_regions(layout_, slot), decoder,
                         cancel_)) {
        return false;
      }
    }
    if (ticket.verify) {
      board_.set(stage, StageState::working, fmt::format("checksumming batch {}", ticket.batch));
      NvtxRange range(NvtxCategory::verify, "batch checksums");
      ticket.sums = sample_checksums(layout_, slot_regions(layout_, slot));
    }
    return true;
  }

  void worker(std::size_t index) {
    nvtx_name_this_thread(fmt::format("worker {}", index));
    const std::size_t stage = worker_stages_[index];
    SlotPool& pool = worker_pool();
    BoundedQueue<BatchTicket>& out = worker_output();
    std::optional<TileDecoder> decoder;
    std::optional<JpegDecoder> reference_decoder;
    if (config_.decode == DecodeMode::cpu) {
      decoder.emplace(config_.images, config_.tile);
    } else if (config_.decode == DecodeMode::gpu) {
      reference_decoder.emplace();
    }
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
      BatchTicket ticket;
      ticket.batch = batch;
      ticket.slot = *slot;
      ticket.verify = config_.verifies(batch);
      std::byte* into = worker_buffers()[*slot].data();
      const bool produced =
          !cancel_.cancelled() &&
          (reference_decoder ? pack_jpeg_batch(into, ticket, stage, *reference_decoder)
                             : produce_batch(into, ticket, stage, decoder ? &*decoder : nullptr));
      if (!produced) {
        break;
      }
      meter_.worker_busy(index, start, Clock::now());
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

  // The pin hop: copies the batch of pageable slot ticket.slot into a free pinned slot, hands the
  // pageable one back and points the ticket at the pinned one. False when cancelled.
  bool pin_batch(BatchTicket& ticket, std::size_t stage) {
    board_.set(stage, StageState::waiting_slot,
               fmt::format("batch {}: free slot in '{}'", ticket.batch, ring_pool_->name()));
    const std::optional<std::size_t> slot = ring_pool_->acquire();
    if (!slot) {
      return false;
    }
    board_.set(stage, StageState::working, fmt::format("pinning batch {}", ticket.batch));
    const Clock::time_point start = Clock::now();
    run_hook(PipelineStage::pin, ticket.batch);
    if (cancel_.cancelled()) {
      return false;
    }
    {
      NvtxRange range(NvtxCategory::pin, fmt::format("pin batch {}", ticket.batch), ticket.bytes);
      if (pin_team_) {
        team_memcpy(*pin_team_, ring_[*slot].data(), pageable_[ticket.slot].data(), ticket.bytes);
      } else {
        std::memcpy(ring_[*slot].data(), pageable_[ticket.slot].data(), ticket.bytes);
      }
    }
    meter_.pin_busy(start, Clock::now());
    pageable_pool_->release(ticket.slot);
    ticket.slot = *slot;
    return true;
  }

  void pin_loop() {
    nvtx_name_this_thread("pin");
    while (true) {
      board_.set(pin_stage_, StageState::waiting_input, "pop from 'collated'");
      std::optional<BatchTicket> ticket = collated_->pop();
      if (!ticket) {
        break;
      }
      if (!pin_batch(*ticket, pin_stage_)) {
        break;
      }
      board_.set(pin_stage_, StageState::waiting_output,
                 fmt::format("batch {}: push to 'ready'", ticket->batch));
      if (!ready_.push(std::move(*ticket))) {
        break;
      }
    }
    board_.set(pin_stage_, StageState::done);
    ready_.close();
  }

  // worker=process: the batches come from the worker processes (ProcessReceiver); the receiving
  // thread pins each with pin=pin_thread and queues it for the step.
  void receiver_loop() {
    nvtx_name_this_thread("receiver");
    ProcessReceiver receiver({config_, layout_, ids_.first_sample, *processes_, board_,
                              receiver_stage_, worker_pool(), meter_, cancel_});
    const bool finished = receiver.run([this](BatchTicket&& ticket) {
      if (config_.pin == PinMode::pin_thread && !pin_batch(ticket, receiver_stage_)) {
        return false;
      }
      board_.set(receiver_stage_, StageState::waiting_output,
                 fmt::format("batch {}: push to 'ready'", ticket.batch));
      return ready_.push(std::move(ticket));
    });
    if (finished) {
      board_.set(receiver_stage_, StageState::done);
      ready_.close();
    }
  }

  struct InFlight {
    BatchTicket ticket;
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
      std::optional<BatchTicket> ticket = ready_.pop();
      const Clock::time_point wait_end = Clock::now();
      if (!ticket) {
        if (cancel_.cancelled()) {
          return;
        }
        break;  // closed: every batch has been delivered
      }
      if (step >= config_.warmup) {
        meter_.host_wait(wait_start, wait_end);
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
      job.bytes = ticket->bytes;
      job.check_pixels = config_.decode == DecodeMode::gpu && ticket->verify;
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
    outcome_.settle(EpochEnd::completed,
                    {});  // a watchdog firing during the joins cannot undo this
  }

  bool retire(std::size_t lane, std::optional<InFlight>& in_flight) {
    const BatchTicket& ticket = in_flight->ticket;
    board_.set(step_stage_, StageState::waiting_device,
               fmt::format("waiting for the step on batch {} (lane {})", ticket.batch, lane));
    const std::optional<StepOutputs> outputs = engine_.retire(lane, cancel_);
    if (!outputs) {
      return false;
    }
    const Clock::time_point now = Clock::now();
    meter_.step_completed(now, *outputs, in_flight->step >= config_.warmup, ticket.bus_bytes);
    if (config_.decode == DecodeMode::gpu) {
      // The device's per-sample checksums are of nvJPEG's decode, which no host decode matches
      // exactly: the ids are checked as always, the pixels by tolerance (check_decoded).
      audit_.check(ticket.batch, /*verified=*/false, {}, *outputs);
      if (ticket.verify) {
        audit_.check_decoded(ticket.batch, config_.checked_sample(ticket.batch), ticket.reference,
                             *outputs);
      }
    } else {
      audit_.check(ticket.batch, ticket.verify, ticket.sums, *outputs);
    }
    if (completed_.fetch_add(1) + 1 == config_.warmup) {  // warm-up done: the window opens
      meter_.open_window(now);
    }
    watchdog_->kick();
    in_flight.reset();
    return true;
  }

  // What the watchdog reports: every stage, the queues and the pools, as they are now.
  StallSnapshot snapshot(double idle_s) const {
    StallSnapshot stall;
    stall.idle_s = idle_s;
    stall.watchdog_s = config_.watchdog.count();
    stall.stages = board_.snapshot();
    stall.completed = completed_.load();
    stall.batches = config_.batches;
    if (collated_) {
      stall.collated = Occupancy{collated_->size(), collated_->capacity()};
    }
    stall.ready = Occupancy{ready_.size(), ready_.capacity()};
    if (pageable_pool_) {
      stall.pageable_free = Occupancy{pageable_pool_->available(), pageable_pool_->size()};
    }
    if (ring_pool_) {
      stall.pinned_free = Occupancy{ring_pool_->available(), ring_pool_->size()};
    }
    return stall;
  }

  EpochResult finish() {
    EpochResult result;
    outcome_.write_to(result);
    if (result.end != EpochEnd::completed) {
      engine_.quiesce();  // steps may still be in flight: let them finish before slots are reused
      meter_.ended_early(Clock::now());
    } else {
      audit_.check_all_seen();
    }
    result.completed = completed_.load();
    if (result.completed > config_.warmup) {
      result.measured = result.completed - config_.warmup;
    }
    meter_.write_to(result, /*window_has_batches=*/result.measured > 0);
    audit_.write_to(result);
    return result;
  }

  const PipelineConfig& config_;
  const SlotLayout layout_;
  StepEngine& engine_;
  const PipelineHooks& hooks_;
  std::vector<HostBlock>& pageable_;
  std::vector<HostBlock>& ring_;
  ProcessLoader* processes_;  // worker=process, else null
  const EpochDeadline deadline_;
  const SampleIds ids_;
  std::optional<JpegSlotLayout> jpeg_layout_;  // decode=gpu
  std::vector<const JpegImage*> jpeg_images_;  // decode=gpu: sample id's image is id % count

  Cancellation cancel_;
  StageBoard board_;
  std::optional<BoundedQueue<BatchTicket>> collated_;
  std::optional<ThreadTeam> pin_team_;  // pin_threads > 1: the pin thread and its helpers
  BoundedQueue<BatchTicket> ready_;
  std::optional<SlotPool> pageable_pool_;
  std::optional<SlotPool> ring_pool_;
  std::vector<std::size_t> worker_stages_;
  std::size_t receiver_stage_ = 0;
  std::size_t pin_stage_ = 0;
  std::size_t step_stage_ = 0;
  Watchdog* watchdog_ = nullptr;

  std::atomic<std::uint64_t> next_batch_{0};
  std::atomic<std::size_t> workers_left_;
  std::atomic<std::size_t> completed_{0};

  BatchAudit audit_;  // the step thread's; read after the joins
  EpochMeter meter_;  // each stage's thread writes its own part; read after the joins
  EpochOutcome outcome_;
};

}  // namespace

EpochResult run_pipeline_epoch(const PipelineConfig& config, StepEngine& engine,
                               const PipelineHooks& hooks, std::vector<HostBlock>& pageable,
                               std::vector<HostBlock>& ring, ProcessLoader* processes,
                               std::uint64_t first_sample, EpochDeadline deadline) {
  EpochRun run(config, engine, hooks, pageable, ring, processes, first_sample, deadline);
  return run.run();
}

}  // namespace h2d
