#include "harness/pipeline/gpu/gpu_step_engine.hpp"

#include <cuda_runtime_api.h>

#include <chrono>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "harness/core/case_skipped.hpp"
#include "harness/cuda/batched_copy.hpp"
#include "harness/cuda/cuda_error.hpp"
#include "harness/cuda/host_registration.hpp"
#include "harness/cuda/scoped_device.hpp"
#include "harness/host/normalize.hpp"
#include "harness/pipeline/jpeg_slot.hpp"
#include "harness/trace/nvtx.hpp"
#include "kernels/busy.cuh"
#include "kernels/normalize.cuh"
#include "kernels/segment_checksum.cuh"

namespace h2d {
namespace {

// Polls `event` until it has completed or `cancel` fires: cudaEventSynchronize cannot be
// interrupted, and a pipeline that is shutting down must not wait on anything forever. The step
// thread spins (yielding), as CUDA's own default wait does, so its latency stays in
// microseconds; threads that refill slots back off to sleeps so they do not steal CPU from the
// workers still producing.
bool wait_for_event(const Event& event, const Cancellation& cancel, bool spin) {
  for (unsigned polls = 0; !event.ready(); ++polls) {
    if (cancel.cancelled()) {
      return false;
    }
    if (spin || polls < 64) {
      std::this_thread::yield();
    } else {
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
  }
  return true;
}

// The hardware JPEG engine where the GPU has one (A100, H100, H200), else the hybrid backend;
// both throw CaseSkipped (naming nvJPEG) in a build without it.
GpuJpegDecoder make_jpeg_decoder(int device) {
  try {
    return GpuJpegDecoder(device, JpegBackend::hardware);
  } catch (const CaseSkipped&) {
    return GpuJpegDecoder(device, JpegBackend::hybrid);
  }
}

}  // namespace

GpuStepEngine::Lane::Lane(int device, const SlotLayout& layout, std::size_t pixel_bytes,
                          std::size_t sample_pixel_bytes)
    : buffer(device, layout.device_bytes()),
      pixels(pixel_bytes > 0 ? DeviceBuffer(device, pixel_bytes) : DeviceBuffer()),
      readback(HostKind::pinned, layout.readback_bytes() + sample_pixel_bytes),
      copy_start(device),
      copy_end(device),
      decoded(device),
      compute_start(device),
      compute_end(device),
      done(device) {}

GpuStepEngine::GpuStepEngine(int device, const PipelineConfig& config)
    : device_(device),
      config_(config),
      layout_(config),
      copy_(device),
      compute_(device),
      readback_(device),
      normalize_(make_normalize_params(imagenet_stats())) {
  ScopedDevice on(device);
  if (config.batched_copy && !batched_copy_built()) {
    throw CaseSkipped(batched_copy_missing());
  }
  if (config.decode == DecodeMode::gpu) {
    jpeg_.emplace(make_jpeg_decoder(device));
    sample_pixel_bytes_ = config.tile * config.tile * 3;
  }
  int multiprocessors = 0;
  H2D_CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  busy_blocks_ = static_cast<unsigned>(multiprocessors > 0 ? multiprocessors : 1);
  if (config.batch_size > 65535) {
    throw std::invalid_argument("GpuStepEngine: batch size above 65535");
  }
  lanes_.reserve(kPipelineLanes);
  for (std::size_t i = 0; i < kPipelineLanes; ++i) {
    lanes_.emplace_back(device, layout_, sample_pixel_bytes_ * layout_.batch_size,
                        sample_pixel_bytes_);
    // On the copy stream, not the legacy one (which our non-blocking streams do not wait for).
    H2D_CUDA_CHECK(
        cudaMemsetAsync(lanes_.back().buffer.data(), 0, layout_.device_bytes(), copy_.get()));
    std::memset(lanes_.back().readback.data(), 0, lanes_.back().readback.size());
  }
  copy_.synchronize();
}

GpuStepEngine::~GpuStepEngine() {
  quiesce();
}

HostBlock GpuStepEngine::make_pinned_slot(std::size_t bytes) {
  auto pinned = std::make_shared<HostBuffer>(HostKind::pinned, bytes);
  std::byte* data = pinned->data();
  return HostBlock(data, bytes, std::move(pinned));
}

std::shared_ptr<void> GpuStepEngine::page_lock(std::byte* data, std::size_t bytes) {
  ScopedDevice on(device_);
  return std::make_shared<HostRegistration>(data, bytes);
}

void GpuStepEngine::attach(const std::vector<const std::byte*>& slots) {
  ScopedDevice on(device_);
  slots_ = slots;
  slot_copied_.clear();
  slot_copied_.reserve(slots.size());
  for (std::size_t i = 0; i < slots.size(); ++i) {
    slot_copied_.emplace_back(device_);
  }
}

bool GpuStepEngine::wait_slot_free(std::size_t slot, const Cancellation& cancel) {
  ScopedDevice on(device_);
  return wait_for_event(slot_copied_.at(slot), cancel, /*spin=*/false);
}

std::string GpuStepEngine::gpu_decoder() const {
  return jpeg_ ? "nvJPEG " + std::string(to_string(jpeg_->backend())) : std::string();
}

// On the copy stream: the ids to their place in the batch buffer (the lane's copy events around
// it), then nvJPEG's copy of the JPEG bytes and their decode into the lane's pixels (one
// nvjpegDecodeBatched call), which ends at the lane's `decoded` event.
void GpuStepEngine::enqueue_jpeg_decode(Lane& lane, const std::byte* slot, std::size_t bytes) {
  // The payload ends where the worker's last sample did: entries beyond are rejected.
  JpegSlotLayout jpeg_layout{layout_.batch_size, 0};
  if (bytes < jpeg_layout.payload_offset()) {
    throw std::out_of_range("GpuStepEngine: a decode=gpu batch smaller than its slot's header");
  }
  jpeg_layout.capacity = bytes - jpeg_layout.payload_offset();
  H2D_CUDA_CHECK(cudaMemcpyAsync(lane.buffer.data() + layout_.ids_offset(), slot,
                                 jpeg_layout.ids_bytes(), cudaMemcpyHostToDevice, copy_.get()));
  lane.copy_end.record(copy_.get());
  std::vector<JpegBytes> images;
  std::vector<std::byte*> outputs;
  images.reserve(layout_.batch_size);
  outputs.reserve(layout_.batch_size);
  for (std::size_t i = 0; i < layout_.batch_size; ++i) {
    const JpegSlotEntry entry = read_jpeg_entry(slot, jpeg_layout, i);
    images.push_back({entry.data, entry.size, config_.tile, config_.tile});
    outputs.push_back(lane.pixels.data() + i * sample_pixel_bytes_);
  }
  jpeg_->decode(images, outputs, RgbLayout::interleaved, copy_.get());
  lane.decoded.record(copy_.get());
}

// memcpy=batched: each region of the slot (every member's, the ids') to its place in the lane, in
// one cudaMemcpyBatchAsync on the copy stream, then the lane's copy end.
void GpuStepEngine::enqueue_batched_copy(Lane& lane, const std::byte* slot) {
  std::vector<BatchedCopy> regions;
  regions.reserve(layout_.segments());
  for (std::size_t segment = 0; segment < layout_.segments(); ++segment) {
    const std::size_t offset = layout_.segment_offset(segment);
    regions.push_back({lane.buffer.data() + offset, slot + offset, layout_.segment_bytes(segment)});
  }
  enqueue_batched_copies(regions, SourceOrder::stream, copy_.get());
  lane.copy_end.record(copy_.get());
}

void GpuStepEngine::submit(std::size_t lane_index, const StepJob& job) {
  ScopedDevice on(device_);
  Lane& lane = lanes_.at(lane_index);
  const std::byte* source = slots_.at(job.slot);
  lane.read_back = job.read_back;
  lane.check_pixels = jpeg_ && job.check_pixels && job.read_back;
  {
    NvtxRange range(NvtxCategory::copy,
                    jpeg_ ? "enqueue JPEG copy and decode" : "enqueue batch copy", job.bytes);
    // retire() saw the lane's previous step finish on the host; this keeps the order on the GPU.
    H2D_CUDA_CHECK(cudaStreamWaitEvent(copy_.get(), lane.done.get(), 0));
    lane.copy_start.record(copy_.get());
    if (jpeg_) {
      enqueue_jpeg_decode(lane, source, job.bytes);
    } else if (config_.batched_copy) {
      enqueue_batched_copy(lane, source);
    } else {
      H2D_CUDA_CHECK(cudaMemcpyAsync(lane.buffer.data(), source, layout_.host_bytes(),
                                     cudaMemcpyHostToDevice, copy_.get()));
      lane.copy_end.record(copy_.get());
    }
    slot_copied_[job.slot].record(copy_.get());  // after nvJPEG too: it reads the slot
  }
  {
    NvtxRange range(NvtxCategory::compute, "enqueue step");
    const Event& input_ready = jpeg_ ? lane.decoded : lane.copy_end;
    H2D_CUDA_CHECK(cudaStreamWaitEvent(compute_.get(), input_ready.get(), 0));
    lane.compute_start.record(compute_.get());
    if (jpeg_) {  // the decoded pixels into the float32 batch the step reads
      H2D_CUDA_CHECK(kernels::launch_normalize(
          reinterpret_cast<const unsigned char*>(lane.pixels.data()),
          reinterpret_cast<float*>(lane.buffer.data()), layout_.batch_size, config_.tile,
          config_.tile, normalize_, compute_.get()));
    }
    H2D_CUDA_CHECK(kernels::launch_busy(static_cast<std::uint64_t>(config_.compute_us * 1e3),
                                        busy_blocks_, compute_.get()));
    if (job.read_back) {  // the step's outputs: per-sample checksums next to the ids
      auto* sums = reinterpret_cast<unsigned long long*>(lane.buffer.data() + layout_.host_bytes());
      H2D_CUDA_CHECK(cudaMemsetAsync(sums, 0, layout_.ids_bytes(), compute_.get()));
      for (std::size_t m = 0; m < layout_.members.size(); ++m) {  // each adds its part
        const SlotRegion& member = layout_.members[m];
        H2D_CUDA_CHECK(
            kernels::launch_segment_checksums(lane.buffer.data() + member.offset, member.room,
                                              static_cast<unsigned>(layout_.batch_size), sums,
                                              compute_.get(), layout_.first_word(m)));
      }
    }
    lane.compute_end.record(compute_.get());
  }
  if (job.read_back) {
    NvtxRange range(NvtxCategory::copy, "enqueue outputs copy", layout_.readback_bytes());
    H2D_CUDA_CHECK(cudaStreamWaitEvent(readback_.get(), lane.compute_end.get(), 0));
    H2D_CUDA_CHECK(cudaMemcpyAsync(lane.readback.data(), lane.buffer.data() + layout_.ids_offset(),
                                   layout_.readback_bytes(), cudaMemcpyDeviceToHost,
                                   readback_.get()));
    if (lane.check_pixels) {  // decode=gpu: a sample of nvJPEG's pixels, for check_decoded
      H2D_CUDA_CHECK(cudaMemcpyAsync(
          lane.readback.data() + layout_.readback_bytes(),
          lane.pixels.data() + config_.checked_sample(job.batch) * sample_pixel_bytes_,
          sample_pixel_bytes_, cudaMemcpyDeviceToHost, readback_.get()));
    }
    lane.done.record(readback_.get());
  } else {
    lane.done.record(compute_.get());
  }
  if (config_.copy == CopyMode::sync) {
    NvtxRange range(NvtxCategory::copy, "wait for batch copy");
    copy_.synchronize();
  }
}

std::optional<StepOutputs> GpuStepEngine::retire(std::size_t lane_index,
                                                 const Cancellation& cancel) {
  ScopedDevice on(device_);
  Lane& lane = lanes_.at(lane_index);
  if (!wait_for_event(lane.done, cancel, /*spin=*/true)) {
    return std::nullopt;
  }
  // `done` comes after the copy and the step on the GPU, so all their events have completed,
  // and the read-back into pinned memory is complete before the host reads it.
  StepOutputs outputs;
  outputs.copy_s = elapsed_ms(lane.copy_start, lane.copy_end) * 1e-3;
  outputs.compute_s = elapsed_ms(lane.compute_start, lane.compute_end) * 1e-3;
  if (jpeg_) {  // nvJPEG's call is the step's decode (the class comment says why)
    outputs.compute_s += elapsed_ms(lane.copy_end, lane.decoded) * 1e-3;
  }
  if (lane.read_back) {
    outputs.ids.resize(layout_.batch_size);
    outputs.sums.resize(layout_.batch_size);
    std::memcpy(outputs.ids.data(), lane.readback.data(), layout_.ids_bytes());
    std::memcpy(outputs.sums.data(), lane.readback.data() + layout_.ids_bytes(),
                layout_.ids_bytes());
  }
  if (lane.check_pixels) {
    const auto* pixels =
        reinterpret_cast<const std::uint8_t*>(lane.readback.data() + layout_.readback_bytes());
    outputs.pixels.assign(pixels, pixels + sample_pixel_bytes_);
  }
  return outputs;
}

void GpuStepEngine::quiesce() noexcept {
  // Errors are ignored here: this runs on the way out, and a failed step already threw.
  cudaStreamSynchronize(copy_.get());
  cudaStreamSynchronize(compute_.get());
  cudaStreamSynchronize(readback_.get());
}

}  // namespace h2d
