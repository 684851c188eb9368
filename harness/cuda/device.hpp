#pragma once

#include "harness/core/device_info.hpp"

namespace h2d {

// Queried once per process and cached: the answer does not change while we run.
const DeviceDiscovery& discover_devices();

}  // namespace h2d
