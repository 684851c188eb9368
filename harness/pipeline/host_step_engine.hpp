#pragma once

#include <memory>
#include <vector>

#include "harness/host/host_stream.hpp"
#include "harness/pipeline/pipeline_config.hpp"
#include "harness/pipeline/slot_layout.hpp"
#include "harness/pipeline/step_engine.hpp"

namespace h2d {

// The step on the host, for machines without a GPU and for the pipeline's race tests: a copy
// thread stands in for the copy engine (memcpy into a lane buffer), a compute thread for the GPU
// (waits compute_us without holding a core, as a kernel would, then checksums the samples), host
// events order them exactly as CUDA events order the GPU's streams. Host slots are pageable here;
// nothing is page-locked.
class HostStepEngine final : public StepEngine {
 public:
  // Throws CaseSkipped for decode=gpu: there is no device to decode on.
  explicit HostStepEngine(const PipelineConfig& config);
  ~HostStepEngine() override;

  HostBlock make_pinned_slot(std::size_t bytes) override { return HostBlock::pageable(bytes); }
  std::shared_ptr<void> page_lock(std::byte*, std::size_t) override { return nullptr; }
  void attach(const std::vector<const std::byte*>& slots) override;
  bool wait_slot_free(std::size_t slot, const Cancellation& cancel) override;
  void submit(std::size_t lane, const StepJob& job) override;
  std::optional<StepOutputs> retire(std::size_t lane, const Cancellation& cancel) override;
  void quiesce() noexcept override;

 private:
  struct Lane {
    HostBlock buffer;  // the "device" batch buffer
    HostEvent copied;
    HostEvent done;
    StepOutputs outputs;  // written by the stream threads, read after `done`
    bool read_back = false;
  };

  const PipelineConfig config_;
  const SlotLayout layout_;
  std::vector<const std::byte*> slots_;
  std::vector<HostEvent> slot_copied_;
  std::vector<Lane> lanes_;
  Cancellation closing_;  // lets queued waits give up when the engine goes away
  // Declared last: destroyed (joined) first, while everything their tasks touch still exists.
  std::unique_ptr<HostStream> copy_;
  std::unique_ptr<HostStream> compute_;
};

}  // namespace h2d
