#pragma once

#include "harness/core/device_info.hpp"

namespace h2d {

// Queried once per process and cached: the answer does not change while we run.
const DeviceDiscovery& discover_devices();

// The CUDA runtime version to report: what cudaRuntimeGetVersion said (`status` is its
// cudaError_t, `reported` its answer) or, when it failed or said 0 (CUDA 11.8 does both on a
// machine with the driver library but no device), the runtime h2dbench was built with
// (CUDART_VERSION): the runtime is linked in, so that is the one running.
int runtime_version_or_built(int status, int reported);

}  // namespace h2d
