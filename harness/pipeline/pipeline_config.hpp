#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/core/sample_spec.hpp"

namespace h2d {

struct ImageSet;

// How batches reach page-locked memory before the copy (the choices data loaders offer).
enum class PinMode {
  none,         // workers collate into pageable memory; the copy is staged by the driver
  pin_thread,   // workers collate into pageable memory; a pin thread copies each batch into a
                // pinned slot (PyTorch's pin_memory=True)
  pinned_ring,  // workers collate straight into a ring of pinned slots
  // worker=process, shm=reused: the main process page-locks (cudaHostRegister) a ring of
  // shared-memory slots once and the worker processes collate straight into it: no pin copy, the
  // copy engine reads where the worker wrote (no PyTorch release offers this)
  shared_pinned,
};
// Where a loader's workers run: threads of this process (collating straight into the loop's
// slots), or worker processes as PyTorch's DataLoader runs them, whose batches cross to the main
// process in shared memory (harness/pipeline/worker_processes.hpp).
enum class WorkerKind { thread, process };
// worker=process: how a batch crosses. fresh: each member of each batch in a new shared-memory
// segment, created by the worker, its descriptor sent over a Unix socket, mapped by the main
// process (PyTorch). reused: a ring of segments mapped once on both sides, the worker told which
// slot to fill (DALI's parallel external source keeps such persistent chunks).
enum class ShmMode { fresh, reused };
// How the step copies a batch to the device.
enum class CopyMode {
  sync,   // the step waits for the copy (.to(device))
  async,  // the copy is queued on the copy stream and overlaps (.to(device, non_blocking=True))
};
// Where samples are decoded: `none` synthesizes them (sample_us of CPU time each), `cpu` decodes
// real JPEGs with libjpeg-turbo in the workers, `gpu` ships the JPEG bytes (the workers only pack
// them, jpeg_slot) and decodes them on the device with nvJPEG, then normalizes there; skipped
// with the reason where the build has no nvJPEG (and on the host stand-in).
enum class DecodeMode { none, cpu, gpu };
// Train runs the step on the batch; predict also copies outputs back and checks them on the host.
enum class LoopKind { train, predict };

std::string_view to_string(PinMode mode);
std::string_view to_string(CopyMode mode);
std::string_view to_string(LoopKind kind);
std::string_view to_string(DecodeMode mode);
std::string_view to_string(WorkerKind kind);
std::string_view to_string(ShmMode mode);

// Steps rotate through this many device batch buffers ("lanes"): the copy of the next batch
// overlaps the step on the current one.
inline constexpr std::size_t kPipelineLanes = 2;

// One data-loader pipeline configuration. Samples are `channels` x `tile` x `tile` float32 tiles
// (normalized images) with a 64-bit sample id each, as the segmentation loaders of the user story
// return (image tensor + tile ids), or the members of the run's --sample (`sample`), each with the
// loop's sample id beside them.
struct PipelineConfig {
  LoopKind loop = LoopKind::train;
  std::size_t workers = 4;
  WorkerKind worker = WorkerKind::thread;
  ShmMode shm = ShmMode::fresh;  // worker=process only
  // worker=process, shm=fresh: the batch's members (images, ids) cross in one segment instead of
  // one segment each (rf-detr #1399 packed 114 tensors into 9 and loaded 1.25-1.67x faster)
  bool packed_members = false;
  std::size_t prefetch = 2;  // batches each queue may hold ahead of its consumer
  PinMode pin = PinMode::pinned_ring;
  // pin=pin_thread: threads that copy each batch into its pinned slot together. 1 is PyTorch's
  // pin thread; more make the pin hop a staging ring's team copy (docs/strategies.md says when
  // that pays and when the cores are better spent on workers).
  std::size_t pin_threads = 1;
  CopyMode copy = CopyMode::async;
  // memcpy=batched: the step copies the slot's regions (each member's, the ids') in one
  // cudaMemcpyBatchAsync call instead of the whole slot in one cudaMemcpyAsync (GPU families only)
  bool batched_copy = false;
  std::size_t batch_size = 32;
  std::size_t tile = 128;
  std::size_t channels = 3;
  double sample_us = 100;  // CPU time a worker spends per sample (synthesis + normalization)
  DecodeMode decode = DecodeMode::none;    // cpu: decode + crop + normalize instead of sample_us
  std::shared_ptr<const ImageSet> images;  // what decode=cpu|gpu decodes (3 x tile x tile)
  // The --images folder `images` was loaded from, "" for the generated set: a worker process
  // makes the same set again from it (with_decode_inputs fills both).
  std::string image_dir;
  double compute_us = 1000;      // the step's device time per batch (forward/backward stand-in)
  std::size_t batches = 64;      // per epoch
  std::size_t warmup = 4;        // first completions of an epoch, not measured
  std::size_t verify_every = 8;  // checksum every n-th batch on the device; 1 = every batch
  // Batch buffers the copies read from (the pinned ring; the pageable slots with pin=none).
  // 0: enough that no stage waits for one. Fewer bound the pinned memory; then a freed slot is
  // refilled at once, after the copy that read it has finished. worker=process sizes its own;
  // with shm=reused this sets its ring, above workers x prefetch.
  std::size_t slots = 0;
  std::chrono::duration<double> watchdog{30.0};
  std::uint64_t seed = 0x5049504C494E4531ull;  // "PIPLINE1"
  // The run's --sample where it is not the tile: what each sample carries instead of the tile
  // (members that vary drawn per sample and padded to their most bytes, as a padding collate pads
  // to the longest); decode stays none. Unset: the tile.
  std::optional<SampleSpec> sample;

  // What one sample carries: the sample's members, or the tile as one member, "image".
  std::vector<MemberSpec> members() const;
  // The tile's bytes (decode=cpu|gpu write and read tiles).
  std::size_t sample_bytes() const { return channels * tile * tile * sizeof(float); }
  bool verifies(std::uint64_t batch) const { return batch % verify_every == 0; }
  // decode=gpu: the sample of a verified batch whose decoded pixels are read back and compared.
  std::size_t checked_sample(std::uint64_t batch) const {
    return static_cast<std::size_t>(batch % batch_size);
  }
};

// Throws std::invalid_argument naming the first bad field. (decode=cpu images are filled in when
// the case runs: with_decode_inputs.)
void validate(const PipelineConfig& config);

// "train workers=4 prefetch=2 pin=pinned_ring copy=async batch=32 tile=3x128x128 sample_us=100
// compute_us=1000" (and " decode=cpu"): for logs and the soak.
std::string describe(const PipelineConfig& config);

}  // namespace h2d
