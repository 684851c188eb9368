#include "harness/pipeline/host_step_engine.hpp"

#include <chrono>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "harness/core/case_skipped.hpp"
#include "harness/core/stopwatch.hpp"
#include "harness/pipeline/batch_collation.hpp"
#include "harness/trace/nvtx.hpp"

namespace h2d {
namespace {

// The stand-in for a kernel of known duration: the compute thread waits that long. A kernel costs
// the host no core, so the wait sleeps and spins only its last stretch, which a sleep overshoots
// (timer slack, wake-up). Spinning throughout took a core from the loader workers measured against
// it: on 2 cores the baseline host/pipeline case ran 16.4k samples/s with it, 18.7k with this.
void wait_like_a_kernel(double seconds) {
  constexpr double kSpunTail_s = 100e-6;
  const Stopwatch watch;
  if (seconds > kSpunTail_s) {
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds - kSpunTail_s));
  }
  while (watch.seconds() < seconds) {
  }
}

}  // namespace

HostStepEngine::HostStepEngine(const PipelineConfig& config)
    : config_(config),
      layout_(config),
      lanes_(kPipelineLanes),
      copy_(std::make_unique<HostStream>("host copy")),
      compute_(std::make_unique<HostStream>("host compute")) {
  if (config.decode == DecodeMode::gpu) {
    throw CaseSkipped("decode=gpu decodes with nvJPEG on a GPU: the host stand-in has no device");
  }
  if (config.batched_copy) {
    throw CaseSkipped("memcpy=batched is a CUDA call: the host stand-in copies the slot whole");
  }
  for (Lane& lane : lanes_) {
    lane.buffer = HostBlock::pageable(layout_.device_bytes());
    std::memset(lane.buffer.data(), 0, lane.buffer.size());
    lane.outputs.ids.resize(config.batch_size);
    lane.outputs.sums.resize(config.batch_size);
  }
}

HostStepEngine::~HostStepEngine() {
  closing_.cancel();
  copy_.reset();
  compute_.reset();
}

void HostStepEngine::attach(const std::vector<const std::byte*>& slots) {
  slots_ = slots;
  slot_copied_ = std::vector<HostEvent>(slots.size());
}

bool HostStepEngine::wait_slot_free(std::size_t slot, const Cancellation& cancel) {
  return slot_copied_.at(slot).wait(cancel);
}

void HostStepEngine::submit(std::size_t lane_index, const StepJob& job) {
  if (job.slot >= slots_.size() || lane_index >= lanes_.size()) {
    throw std::out_of_range("HostStepEngine::submit: no such slot or lane");
  }
  Lane& lane = lanes_[lane_index];
  lane.read_back = job.read_back;
  const std::byte* source = slots_[job.slot];
  copy_->enqueue([this, &lane, source] {
    NvtxRange range(NvtxCategory::copy, "host copy", layout_.host_bytes());
    const Stopwatch watch;
    std::memcpy(lane.buffer.data(), source, layout_.host_bytes());
    lane.outputs.copy_s = watch.seconds();
  });
  lane.copied.record(*copy_);
  slot_copied_[job.slot].record(*copy_);

  lane.copied.enqueue_wait(*compute_, closing_);
  const bool read_back = job.read_back;
  compute_->enqueue([this, &lane, read_back] {
    if (closing_.cancelled()) {
      return;
    }
    NvtxRange range(NvtxCategory::compute, "host step");
    const Stopwatch watch;
    wait_like_a_kernel(config_.compute_us * 1e-6);
    if (read_back) {  // the step's outputs: the ids and per-sample checksums
      std::byte* batch = lane.buffer.data();
      std::memcpy(lane.outputs.ids.data(), batch + layout_.ids_offset(), layout_.ids_bytes());
      lane.outputs.sums = sample_checksums(layout_, slot_regions(layout_, batch));
    }
    lane.outputs.compute_s = watch.seconds();
  });
  lane.done.record(*compute_);
  if (config_.copy == CopyMode::sync) {
    lane.copied.wait(closing_);
  }
}

std::optional<StepOutputs> HostStepEngine::retire(std::size_t lane_index,
                                                  const Cancellation& cancel) {
  Lane& lane = lanes_.at(lane_index);
  if (!lane.done.wait(cancel)) {
    return std::nullopt;
  }
  StepOutputs outputs = lane.outputs;
  if (!lane.read_back) {
    outputs.ids.clear();
    outputs.sums.clear();
  }
  return outputs;
}

void HostStepEngine::quiesce() noexcept {
  copy_->synchronize();
  compute_->synchronize();
}

}  // namespace h2d
