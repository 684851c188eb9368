#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/cuda/device_buffer.hpp"
#include "harness/cuda/event.hpp"
#include "harness/cuda/host_memory.hpp"
#include "harness/cuda/nvjpeg/gpu_jpeg_decoder.hpp"
#include "harness/cuda/stream.hpp"
#include "harness/host/normalize_params.hpp"
#include "harness/pipeline/pipeline_config.hpp"
#include "harness/pipeline/slot_layout.hpp"
#include "harness/pipeline/step_engine.hpp"

namespace h2d {

// The step on a GPU. Three non-blocking streams: `copy` (host to device), `compute` (the step: a
// busy kernel of compute_us standing in for forward/backward, then per-sample checksums when the
// batch is read back), `readback` (device to host, into pinned memory). Events order them: the
// step waits for its batch's copy, the read-back for the step, a lane's next copy for the lane's
// previous step; and each host slot's event marks the copy that last read it, so a slot is
// refilled only after that copy has finished. No latch anywhere, so a pageable copy (pin=none)
// can never deadlock behind one.
//
// decode=gpu: the host slot holds the batch's JPEG bytes (jpeg_slot). The copy stage copies the
// ids and hands the JPEG bytes to nvJPEG (GpuJpegDecoder, the hardware backend where the GPU has
// one, else hybrid), which copies them to the device and decodes into the lane's pixel buffer, on
// the copy stream; the step then runs the GPU normalize into the float batch, the busy kernel and
// the checksums. nvJPEG's call counts as the step (compute_s), not the bus (copy_s: the ids' copy):
// its copy of the JPEG bytes cannot be timed apart from its decode, and counting both as the bus
// made a decode-bound pipeline read as bus-bound (the H200: bus 93% busy moving 0.5 GB/s).
// Verified batches also bring one sample's decoded pixels back (StepJob::check_pixels).
class GpuStepEngine final : public StepEngine {
 public:
  // decode=gpu: throws CaseSkipped naming nvJPEG where this build has none (the simulated GPU),
  // before anything is allocated.
  GpuStepEngine(int device, const PipelineConfig& config);
  ~GpuStepEngine() override;

  HostBlock make_pinned_slot(std::size_t bytes) override;
  std::shared_ptr<void> page_lock(std::byte* data, std::size_t bytes) override;
  void attach(const std::vector<const std::byte*>& slots) override;
  bool wait_slot_free(std::size_t slot, const Cancellation& cancel) override;
  void submit(std::size_t lane, const StepJob& job) override;
  std::optional<StepOutputs> retire(std::size_t lane, const Cancellation& cancel) override;
  void quiesce() noexcept override;
  std::string gpu_decoder() const override;

 private:
  struct Lane {
    Lane(int device, const SlotLayout& layout, std::size_t pixel_bytes,
         std::size_t sample_pixel_bytes);
    DeviceBuffer buffer;  // images, ids, checksums (SlotLayout)
    DeviceBuffer pixels;  // decode=gpu: nvJPEG's output, batch x tile x tile x 3 uint8
    HostBuffer readback;  // pinned: ids and checksums come back here (then a sample's pixels)
    Event copy_start;
    Event copy_end;
    Event decoded;  // decode=gpu: after nvJPEG's call, on the copy stream
    Event compute_start;
    Event compute_end;  // after the busy kernel and, when read back, the checksums
    Event done;         // everything the lane's step does, read-back included
    bool read_back = false;
    bool check_pixels = false;
  };

  void enqueue_batched_copy(Lane& lane, const std::byte* slot);
  void enqueue_jpeg_decode(Lane& lane, const std::byte* slot, std::size_t bytes);

  const int device_;
  const PipelineConfig config_;
  const SlotLayout layout_;
  unsigned busy_blocks_ = 1;
  std::optional<GpuJpegDecoder> jpeg_;  // decode=gpu
  std::size_t sample_pixel_bytes_ = 0;  // decode=gpu: tile x tile x 3
  Stream copy_;
  Stream compute_;
  Stream readback_;
  NormalizeParams normalize_;  // decode=gpu: ImageNet's, as the CPU workers' (TileDecoder)
  std::vector<Lane> lanes_;
  std::vector<const std::byte*> slots_;
  std::vector<Event> slot_copied_;
};

}  // namespace h2d
