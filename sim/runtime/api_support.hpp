#pragma once

#include <cuda_runtime_api.h>

#include "sim/runtime/errors.hpp"
#include "sim/runtime/faults.hpp"
#include "sim/runtime/runtime.hpp"
#include "sim/runtime/stream.hpp"

namespace h2d::sim {

// What every entry point does first. All of them return the error they fail with after recording
// it as the thread's last error (errors.hpp).

// The calling thread's current device; fails with its sticky error once it has one.
cudaError_t current_device(Device*& device);
// A device's sticky error, recorded as the last error (cudaSuccess when it has none).
cudaError_t sticky(const Device& device);

// cudaStream_t as CUDA reads it: 0 and cudaStreamLegacy are the current device's legacy default
// stream, cudaStreamPerThread the calling thread's per-thread default stream (a blocking stream:
// Runtime API "Default stream behavior"), anything else a stream made by cudaStreamCreate*.
cudaError_t resolve_stream(cudaStream_t handle, StreamPtr& stream, Device*& device);

// Counts a call of `function` for H2D_SIM_FAULTS. An injected sticky error also ends `device`.
FaultEffect injected(const char* function, Device* device);

// CUDA_LAUNCH_BLOCKING=1: launches and async copies return only when their work is done.
void wait_if_launch_blocking(const CompletionPtr& work);

// Programming Guide "Implicit Synchronization": returns when every device is idle, as page-locked
// allocation, registration and their release do.
void wait_all_devices_idle();

}  // namespace h2d::sim
