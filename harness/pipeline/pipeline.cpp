#include "harness/pipeline/pipeline.hpp"

#include <cstring>
#include <stdexcept>
#include <utility>

#include "harness/pipeline/epoch_run.hpp"
#include "harness/pipeline/jpeg_slot.hpp"
#include "harness/pipeline/process_loader.hpp"
#include "harness/trace/nvtx.hpp"

namespace h2d {

std::string_view to_string(EpochEnd end) {
  switch (end) {
    case EpochEnd::completed:
      return "completed";
    case EpochEnd::stalled:
      return "stalled";
    case EpochEnd::interrupted:
      return "interrupted";
    case EpochEnd::out_of_time:
      return "out of time";
    case EpochEnd::failed:
      return "failed";
  }
  return "unknown";
}

Pipeline::Pipeline(const PipelineConfig& config, StepEngine& engine, PipelineHooks hooks)
    : config_(config), engine_(engine), hooks_(std::move(hooks)) {
  validate(config);
  // decode=gpu slots hold compressed bytes: sized for the heaviest batch of the image set.
  const std::size_t slot_bytes = host_slot_bytes(config);
  // By default, enough slots that a stage waits for memory only when the stage after it is full.
  std::size_t pageable_count = 0;
  std::size_t ring_count = 0;
  switch (config.pin) {
    case PinMode::none:
      pageable_count =
          config.slots > 0 ? config.slots : config.workers + config.prefetch + kPipelineLanes;
      break;
    case PinMode::pin_thread:
      pageable_count = config.workers + config.prefetch + 1;
      ring_count = config.slots > 0 ? config.slots : 1 + config.prefetch + kPipelineLanes;
      break;
    case PinMode::pinned_ring:
    case PinMode::shared_pinned:  // made by make_process_loader
      ring_count =
          config.slots > 0 ? config.slots : config.workers + config.prefetch + kPipelineLanes;
      break;
  }
  if (config.worker == WorkerKind::process) {
    pageable_count = 0;
    ring_count = 0;
    processes_ = make_process_loader(config, engine, pageable_, ring_);
  }
  NvtxRange range(NvtxCategory::setup, "allocate pipeline slots");
  for (std::size_t i = 0; i < pageable_count; ++i) {
    pageable_.push_back(HostBlock::pageable(slot_bytes));
    std::memset(pageable_.back().data(), 0, slot_bytes);  // first touch, outside timing
  }
  for (std::size_t i = 0; i < ring_count; ++i) {
    ring_.push_back(engine.make_pinned_slot(slot_bytes));
    std::memset(ring_.back().data(), 0, slot_bytes);
  }
  std::vector<const std::byte*> fed;
  for (const HostBlock& buffer : config.pin == PinMode::none ? pageable_ : ring_) {
    fed.push_back(buffer.data());
  }
  engine_.attach(fed);
}

Pipeline::~Pipeline() {
  engine_.quiesce();
}

int Pipeline::worker_pid(std::size_t index) const {
  return processes_ ? processes_->workers->pid(index) : -1;
}

EpochResult Pipeline::run_epoch(EpochDeadline deadline) {
  if (processes_ && processes_->unanswered > 0) {
    throw std::logic_error(
        "an earlier epoch ended early with batches still asked of the worker processes: a new "
        "Pipeline starts them afresh");
  }
  const std::uint64_t first_sample = epochs_ * config_.batches * config_.batch_size;
  ++epochs_;
  return run_pipeline_epoch(config_, engine_, hooks_, pageable_, ring_, processes_.get(),
                            first_sample, deadline);
}

}  // namespace h2d
