// The latch deadlocks behind a kernel that CUDA loads lazily at its first launch
// (kernels/latch.cu), so every program that links the latch asks the driver for eager module
// loading before main(). Checked without a GPU: the setting the driver reads when it initializes.

#include <gtest/gtest.h>

#include <cstdlib>

#include "kernels/latch.cuh"

namespace h2d {
namespace {

TEST(LatchModuleLoading, ProgramsThatLinkTheLatchLoadKernelsEagerly) {
  [[maybe_unused]] auto* const latch = &kernels::launch_latch;  // links the latch
  const char* mode = std::getenv("CUDA_MODULE_LOADING");
  ASSERT_NE(mode, nullptr) << "lazy loading (the default) can deadlock a latched window";
  EXPECT_STREQ(mode, "EAGER");
}

}  // namespace
}  // namespace h2d
