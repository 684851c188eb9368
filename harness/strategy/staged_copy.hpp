#pragma once

#include <cstddef>

#include "harness/cuda/host_memory.hpp"
#include "harness/cuda/stream.hpp"

namespace h2d {

// Host-to-device copies from pageable memory without the driver's staging path. Each returns once
// the data has arrived on the device (the stream is synchronized), so a host clock around the call
// measures the whole strategy, host work included. The bounce ring is
// harness/strategy/bounce_ring.hpp.

// A copy from memory that is already page-locked (pinned, or registered earlier): one async copy,
// then wait.
void copy_and_wait(void* device_destination, const void* page_locked_source, std::size_t bytes,
                   const Stream& stream);

// Pin-then-copy, as Tensor.pin_memory() followed by .to(device, non_blocking=True): one host memcpy
// into `staging` (page-locked, reused across calls, at least `bytes`), then one async copy.
void pin_then_copy(void* device_destination, const void* source, std::size_t bytes,
                   const HostBuffer& staging, const Stream& stream);

// Register-in-place: cudaHostRegister the source, copy straight from it, cudaHostUnregister.
void register_and_copy(void* device_destination, void* source, std::size_t bytes,
                       const Stream& stream);

}  // namespace h2d
