#include "harness/strategy/bounce_ring.hpp"

#include <stdexcept>

#include "harness/cuda/cuda_error.hpp"
#include "harness/cuda/scoped_device.hpp"
#include "harness/trace/nvtx.hpp"

namespace h2d {
namespace {

BounceRingConfig checked(const BounceRingConfig& config) {
  if (config.chunk_bytes == 0 || config.depth == 0 || config.threads == 0) {
    throw std::invalid_argument(
        "a bounce ring needs a non-zero chunk size, depth and thread count");
  }
  return config;
}

}  // namespace

BounceRing::BounceRing(int device, const BounceRingConfig& config)
    : device_(device), config_(checked(config)), stream_(device), team_(config.threads, "stage") {
  ScopedDevice on(device);
  slots_.reserve(config_.depth);
  slot_done_.reserve(config_.depth);
  for (std::size_t i = 0; i < config_.depth; ++i) {
    slots_.emplace_back(HostKind::pinned, config_.chunk_bytes);
    slot_done_.emplace_back(device);
  }
}

BounceRing::~BounceRing() {
  // Copies may still read the slots if a copy() was interrupted by an exception; the pinned slots
  // must outlive them. Errors cannot be reported from here.
  cudaStreamSynchronize(stream_.get());
}

RingRunStats BounceRing::copy(void* destination, const std::byte* source, std::size_t bytes,
                              const std::function<void(cudaStream_t)>& before_each_copy) {
  ScopedDevice on(device_);
  const RingSchedule schedule(bytes, config_.chunk_bytes, config_.depth);
  std::vector<std::byte*> slots;
  for (const HostBuffer& slot : slots_) {
    slots.push_back(slot.data());
  }
  auto* target = static_cast<std::byte*>(destination);
  RingHooks hooks;
  hooks.wait_slot = [this](std::size_t slot) {
    if (slot_done_[slot].ready()) {
      return false;
    }
    slot_done_[slot].synchronize();
    return true;
  };
  hooks.submit = [&](const RingChunk& chunk, const std::byte* slot_data) {
    NvtxRange range(NvtxCategory::copy, "slot to device", chunk.bytes);
    if (before_each_copy) {
      before_each_copy(stream_.get());
    }
    H2D_CUDA_CHECK(cudaMemcpyAsync(target + chunk.offset, slot_data, chunk.bytes,
                                   cudaMemcpyHostToDevice, stream_.get()));
    slot_done_[chunk.slot].record(stream_.get());
  };
  try {
    return run_ring(schedule, slots, source, team_, hooks);
  } catch (...) {
    // Leave no copy reading a slot the caller may refill or free.
    cudaStreamSynchronize(stream_.get());
    throw;
  }
}

}  // namespace h2d
