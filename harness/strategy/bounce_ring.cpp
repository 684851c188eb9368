#include "harness/strategy/bounce_ring.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "harness/core/byte_size.hpp"
#include "harness/cuda/cuda_error.hpp"
#include "harness/cuda/scoped_device.hpp"
#include "harness/trace/nvtx.hpp"

namespace h2d {
namespace {

RingCapacity capacity_for(const BounceRingConfig& config, RingCapacity capacity) {
  if (capacity.pinned_bytes == 0 && capacity.depth == 0) {
    return {config.chunk_bytes * config.depth, config.depth};
  }
  return capacity;
}

BounceRingConfig checked(const BounceRingConfig& config, const RingCapacity& capacity) {
  if (config.chunk_bytes == 0 || config.depth == 0 || config.threads == 0) {
    throw std::invalid_argument(
        "a bounce ring needs a non-zero chunk size, depth and thread count");
  }
  if (config.depth > capacity.depth || config.chunk_bytes * config.depth > capacity.pinned_bytes) {
    throw std::invalid_argument(fmt::format(
        "a bounce ring of {} slots of {} does not fit its capacity of {} slots in {} pinned",
        config.depth, format_bytes(config.chunk_bytes), capacity.depth,
        format_bytes(capacity.pinned_bytes)));
  }
  return config;
}

}  // namespace

BounceRing::BounceRing(int device, const BounceRingConfig& config, RingCapacity capacity)
    : device_(device),
      capacity_(capacity_for(config, capacity)),
      config_(checked(config, capacity_)),
      stream_(device) {
  ScopedDevice on(device);
  pinned_ = HostBuffer(HostKind::pinned, capacity_.pinned_bytes);
  slot_done_.reserve(capacity_.depth);
  for (std::size_t i = 0; i < capacity_.depth; ++i) {
    slot_done_.emplace_back(device);
  }
  team_.emplace(config_.threads, "stage");
}

BounceRing::~BounceRing() {
  // Copies may still read the slots if a copy() was interrupted by an exception; the pinned slots
  // must outlive them. Errors cannot be reported from here.
  cudaStreamSynchronize(stream_.get());
}

void BounceRing::reshape(const BounceRingConfig& config) {
  const BounceRingConfig next = checked(config, capacity_);
  stream_.synchronize();  // no copy may still read a slot whose bounds move
  if (next.threads != config_.threads) {
    team_.reset();
    team_.emplace(next.threads, "stage");
  }
  config_ = next;
}

RingRunStats BounceRing::copy(void* destination, const std::byte* source, std::size_t bytes,
                              const std::function<void(cudaStream_t)>& before_each_copy) {
  ScopedDevice on(device_);
  const RingSchedule schedule(bytes, config_.chunk_bytes, config_.depth);
  std::vector<std::byte*> slots;
  for (std::size_t i = 0; i < config_.depth; ++i) {
    slots.push_back(pinned_.data() + i * config_.chunk_bytes);
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
    return run_ring(schedule, slots, source, *team_, hooks);
  } catch (...) {
    // Leave no copy reading a slot the caller may refill or free.
    cudaStreamSynchronize(stream_.get());
    throw;
  }
}

}  // namespace h2d
