#pragma once

#include <chrono>

namespace h2d {

// The startup probe of decide_latches (harness/core/latch_policy.hpp): launches a latch on
// `device` and asks, before releasing it, whether its kernel is still running. False when the
// launch itself waited for the kernel to end (CUDA_LAUNCH_BLOCKING=1, Nsight Compute,
// compute-sanitizer): the kernel then ended by its own timeout, so the probe costs at most
// `timeout` and never hangs.
bool latch_launch_returns_early(int device,
                                std::chrono::milliseconds timeout = std::chrono::milliseconds(200));

}  // namespace h2d
