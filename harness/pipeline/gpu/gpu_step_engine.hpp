#pragma once

#include <vector>

#include "harness/cuda/device_buffer.hpp"
#include "harness/cuda/event.hpp"
#include "harness/cuda/host_memory.hpp"
#include "harness/cuda/stream.hpp"
#include "harness/pipeline/pipeline_config.hpp"
#include "harness/pipeline/step_engine.hpp"

namespace h2d {

// The step on a GPU. Three non-blocking streams: `copy` (host to device), `compute` (the step: a
// busy kernel of compute_us standing in for forward/backward, then per-sample checksums when the
// batch is read back), `readback` (device to host, into pinned memory). Events order them: the
// step waits for its batch's copy, the read-back for the step, a lane's next copy for the lane's
// previous step; and each host slot's event marks the copy that last read it, so a slot is
// refilled only after that copy has finished. No latch anywhere, so a pageable copy (pin=none)
// can never deadlock behind one.
class GpuStepEngine final : public StepEngine {
 public:
  GpuStepEngine(int device, const PipelineConfig& config);
  ~GpuStepEngine() override;

  HostBlock make_pinned_slot(std::size_t bytes) override;
  void attach(const std::vector<const std::byte*>& slots) override;
  bool wait_slot_free(std::size_t slot, const Cancellation& cancel) override;
  void submit(std::size_t lane, const StepJob& job) override;
  std::optional<StepOutputs> retire(std::size_t lane, const Cancellation& cancel) override;
  void quiesce() noexcept override;

 private:
  struct Lane {
    Lane(int device, const BatchLayout& layout);
    DeviceBuffer buffer;  // images, ids, checksums (BatchLayout)
    HostBuffer readback;  // pinned: ids and checksums come back here
    Event copy_start;
    Event copy_end;
    Event compute_start;
    Event compute_end;  // after the busy kernel and, when read back, the checksums
    Event done;         // everything the lane's step does, read-back included
    bool read_back = false;
  };

  const int device_;
  const PipelineConfig config_;
  const BatchLayout layout_;
  unsigned busy_blocks_ = 1;
  Stream copy_;
  Stream compute_;
  Stream readback_;
  std::vector<Lane> lanes_;
  std::vector<const std::byte*> slots_;
  std::vector<Event> slot_copied_;
};

}  // namespace h2d
