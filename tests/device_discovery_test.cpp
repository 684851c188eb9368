// What discovery reports about CUDA itself, on any machine (with or without a GPU).

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include "harness/cuda/device.hpp"

namespace {

using h2d::runtime_version_or_built;

// A CUDA 11.8 build reported "runtime_version": "none" on a machine with the driver library and
// no device (cudaRuntimeGetVersion failed there), and compare then showed "CUDA runtime none".
TEST(DeviceDiscovery, RuntimeVersionIsTheBuiltOneWhenCudaCannotSay) {
  EXPECT_EQ(runtime_version_or_built(cudaErrorInsufficientDriver, 0), CUDART_VERSION);
  EXPECT_EQ(runtime_version_or_built(cudaErrorNoDevice, 0), CUDART_VERSION);
  EXPECT_EQ(runtime_version_or_built(cudaSuccess, 0), CUDART_VERSION);
  EXPECT_EQ(runtime_version_or_built(cudaSuccess, 12040), 12040);
}

TEST(DeviceDiscovery, RuntimeVersionIsAlwaysKnown) {
  EXPECT_GT(h2d::discover_devices().runtime_version, 0);
  EXPECT_NE(h2d::format_cuda_version(h2d::discover_devices().runtime_version), "none");
}

}  // namespace
