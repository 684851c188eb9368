#pragma once

#include <cuda_runtime_api.h>

namespace h2d::sim {

class Device;

// cudaGetDeviceProperties of a simulated device: its configured identity and model, and CUDA's
// documented limits for its compute capability (Programming Guide, "Compute Capabilities",
// table "Technical Specifications per Compute Capability") where nothing is modelled.
cudaDeviceProp device_properties(const Device& device);

// cudaDeviceGetAttribute read from those properties; false for an attribute the sim does not
// know (it returns cudaErrorInvalidValue rather than invent a value).
bool device_attribute(const cudaDeviceProp& properties, cudaDeviceAttr attribute, int& value);

}  // namespace h2d::sim
