#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "harness/core/cancellation.hpp"
#include "harness/core/host_block.hpp"

namespace h2d {

// One batch handed to the step.
struct StepJob {
  std::size_t slot = 0;  // the host slot (see StepEngine::attach) holding the batch
  std::uint64_t batch = 0;
  bool read_back =
      false;  // compute per-sample checksums on the device and copy ids + checksums back
  std::size_t bytes = 0;  // what the slot holds from its start (a decode=gpu batch varies)
  // decode=gpu: also copy back the decoded pixels of sample config.checked_sample(batch), which
  // the host compares with libjpeg-turbo's decode (the IDCTs differ: no exact checksum matches).
  bool check_pixels = false;
};

// What a finished step reports.
struct StepOutputs {
  double copy_s = 0;                 // the host-to-device copy of the batch
  double compute_s = 0;              // the step itself, its outputs (read-back checksums) included
  std::vector<std::uint64_t> ids;    // read back from the device (empty unless read_back)
  std::vector<std::uint64_t> sums;   // per-sample checksums computed there (same)
  std::vector<std::uint8_t> pixels;  // decode=gpu, check_pixels: the sample's decoded RGB
};

// The consumer end of a data-loader pipeline: copies a batch from a host slot into one of its
// lanes (device batch buffers) and runs the step there. A GPU (copy and compute streams, events)
// or a host stand-in with the same ordering rules, so the orchestration is the same code and can
// be tested without a GPU. Called from the pipeline's step thread, except wait_slot_free(), which
// the threads that refill slots call.
class StepEngine {
 public:
  virtual ~StepEngine() = default;

  // A slot of the pinned ring: page-locked memory on a GPU, pageable for the host stand-in.
  virtual HostBlock make_pinned_slot(std::size_t bytes) = 0;
  // Page-locks memory the pipeline made (pin=shared_pinned's shared-memory ring) for as long as
  // the returned handle lives: cudaHostRegister on a GPU; the host stand-in locks nothing (null).
  virtual std::shared_ptr<void> page_lock(std::byte* data, std::size_t bytes) = 0;
  // Once, before the first submit(): the host slots submit() copies from.
  virtual void attach(const std::vector<const std::byte*>& slots) = 0;
  // Blocks until the last copy out of `slot` has finished, so the slot may be refilled; false
  // when `cancel` fired first.
  virtual bool wait_slot_free(std::size_t slot, const Cancellation& cancel) = 0;
  // Queues the copy of job.slot into `lane` (0..kPipelineLanes-1), then the step on it. The lane
  // must have been retired. Returns at once for async copies, after the copy for sync copies.
  virtual void submit(std::size_t lane, const StepJob& job) = 0;
  // Blocks until the step last submitted on `lane` has finished; nullopt when `cancel` fired
  // first (the lane's work is then still in flight: quiesce() before freeing what it reads).
  virtual std::optional<StepOutputs> retire(std::size_t lane, const Cancellation& cancel) = 0;
  // Waits for everything submitted, without cancellation (the work is bounded).
  virtual void quiesce() noexcept = 0;
  // With decode=gpu: what decodes on the device ("nvJPEG hybrid"), for the verdict's label.
  virtual std::string gpu_decoder() const { return {}; }
};

}  // namespace h2d
