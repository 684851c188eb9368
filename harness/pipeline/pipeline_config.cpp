#include "harness/pipeline/pipeline_config.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

namespace h2d {

std::string_view to_string(PinMode mode) {
  switch (mode) {
    case PinMode::none:
      return "none";
    case PinMode::pin_thread:
      return "pin_thread";
    case PinMode::pinned_ring:
      return "pinned_ring";
    case PinMode::shared_pinned:
      return "shared_pinned";
  }
  return "unknown";
}

std::string_view to_string(CopyMode mode) {
  return mode == CopyMode::sync ? "sync" : "async";
}

std::string_view to_string(LoopKind kind) {
  return kind == LoopKind::train ? "train" : "predict";
}

std::string_view to_string(DecodeMode mode) {
  switch (mode) {
    case DecodeMode::none:
      return "none";
    case DecodeMode::cpu:
      return "cpu";
    case DecodeMode::gpu:
      return "gpu";
  }
  return "unknown";
}

std::string_view to_string(WorkerKind kind) {
  return kind == WorkerKind::thread ? "thread" : "process";
}

std::string_view to_string(ShmMode mode) {
  return mode == ShmMode::fresh ? "fresh" : "reused";
}

std::vector<MemberSpec> PipelineConfig::members() const {
  if (sample) {
    return sample->members;
  }
  return {MemberSpec{"image", {{channels, channels}, {tile, tile}, {tile, tile}}, DType::float32}};
}

void validate(const PipelineConfig& config) {
  const auto require = [](bool ok, const char* what) {
    if (!ok) {
      throw std::invalid_argument(fmt::format("pipeline configuration: {}", what));
    }
  };
  require(config.workers >= 1, "workers must be at least 1");
  require(config.prefetch >= 1, "prefetch must be at least 1");
  require(config.batch_size >= 1, "batch size must be at least 1");
  require(config.tile >= 1 && config.channels >= 1, "tiles need at least one pixel");
  require(std::isfinite(config.sample_us) && config.sample_us >= 0, "sample_us must be >= 0");
  require(std::isfinite(config.compute_us) && config.compute_us >= 0, "compute_us must be >= 0");
  require(config.batches > config.warmup, "an epoch needs more batches than warm-up batches");
  require(config.verify_every >= 1, "verify_every must be at least 1");
  require(config.pin_threads >= 1, "pin_threads must be at least 1");
  require(config.pin_threads == 1 || config.pin == PinMode::pin_thread,
          "pin_threads above 1 needs pin=pin_thread (only its pin hop copies)");
  const bool processes = config.worker == WorkerKind::process;
  require(processes || config.shm == ShmMode::fresh,
          "shm=reused needs worker=process (thread workers share the process's memory)");
  require(processes || config.pin != PinMode::shared_pinned,
          "pin=shared_pinned needs worker=process (thread workers use pin=pinned_ring)");
  require(!processes || config.pin != PinMode::pinned_ring,
          "worker=process cannot write into memory cudaHostAlloc made in the main process: "
          "pin=shared_pinned is its pinned ring");
  require(config.pin != PinMode::shared_pinned || config.shm == ShmMode::reused,
          "pin=shared_pinned page-locks its slots once: it needs shm=reused");
  require(!config.packed_members || (processes && config.shm == ShmMode::fresh),
          "members=packed packs a batch into one fresh segment: it needs worker=process shm=fresh");
  require(!processes || config.slots == 0 ||
              (config.shm == ShmMode::reused && config.slots > config.workers * config.prefetch),
          "worker=process: slots sizes the shm=reused ring only, and above workers x prefetch "
          "(every batch asked of a worker holds a slot until it arrives)");
  require(!processes || config.batch_size <= 8192,
          "worker=process sends a batch's checksums in one message: batch at most 8192");
  require(!processes || config.decode != DecodeMode::gpu,
          "decode=gpu packs JPEG bytes in thread workers only");
  require(config.watchdog.count() > 0, "the watchdog timeout must be positive");
  require(config.decode == DecodeMode::none || config.channels == 3,
          "decode=cpu|gpu decodes RGB: channels must be 3");
  require(config.decode == DecodeMode::none || !config.sample,
          "decode=cpu|gpu decodes the tile's JPEGs: it takes no --sample");
  require(!config.sample || !config.sample->members.empty(), "a sample needs a member");
  require(!config.batched_copy || config.decode != DecodeMode::gpu,
          "memcpy=batched copies the batch's regions; decode=gpu hands nvJPEG its bytes instead");
}

std::string describe(const PipelineConfig& config) {
  const std::string slots =
      config.slots > 0 ? fmt::format(" slots={}", config.slots) : std::string();
  return fmt::format(
      "{}{} workers={}{} prefetch={} pin={}{} copy={} batch={}{} sample_us={} compute_us={}{}{}",
      to_string(config.loop), config.sample ? " sample=" + config.sample->name : "", config.workers,
      config.worker == WorkerKind::thread
          ? ""
          : fmt::format(" worker=process shm={}{}", to_string(config.shm),
                        config.packed_members ? " members=packed" : ""),
      config.prefetch, to_string(config.pin),
      config.pin_threads == 1 ? "" : fmt::format(" pin_threads={}", config.pin_threads),
      std::string(to_string(config.copy)) + (config.batched_copy ? " memcpy=batched" : ""),
      config.batch_size,
      config.sample ? "" : fmt::format(" tile={}x{}x{}", config.channels, config.tile, config.tile),
      config.sample_us, config.compute_us, slots,
      config.decode == DecodeMode::none ? "" : fmt::format(" decode={}", to_string(config.decode)));
}

}  // namespace h2d
