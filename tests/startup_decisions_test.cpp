// The decisions behind the startup checks and the run-wide reactions of issue 12, as pure logic:
// whether latches are used, when a peer route may be latched, the kernel-image refusal, and which
// CUDA errors are sticky.

#include <gtest/gtest.h>

#include "harness/core/kernel_image_message.hpp"
#include "harness/core/latch_policy.hpp"
#include "harness/core/sticky_cuda_error.hpp"

namespace h2d {
namespace {

TEST(LatchPolicy, LatchesNeedALaunchThatReturnsWhileTheKernelSpins) {
  EXPECT_TRUE(decide_latches(false, true).enabled);
  EXPECT_TRUE(decide_latches(false, std::nullopt).enabled);  // no GPU: nothing probed
  EXPECT_TRUE(decide_latches(false, true).reason.empty());

  const LatchDecision blocking = decide_latches(false, false);
  EXPECT_FALSE(blocking.enabled);
  EXPECT_NE(blocking.reason.find("CUDA_LAUNCH_BLOCKING=1"), std::string::npos);
  EXPECT_EQ(blocking.reason.find('\n'), std::string::npos);  // one line

  const LatchDecision profile = decide_latches(true, std::nullopt);
  EXPECT_FALSE(profile.enabled);
  EXPECT_NE(profile.reason.find("profile"), std::string::npos);
  EXPECT_FALSE(decide_latches(true, true).enabled);
  EXPECT_NE(decide_latches(true, false).reason.find("CUDA_LAUNCH_BLOCKING"), std::string::npos);
}

TEST(LatchPolicy, PeerCopiesAreLatchedOnlyWithPeerAccess) {
  EXPECT_TRUE(latch_peer_copies(true, true));
  EXPECT_FALSE(latch_peer_copies(false, true));  // staged through the host: holds the thread
  EXPECT_FALSE(latch_peer_copies(true, false));
}

TEST(KernelImage, RefusalNamesTheGpuItsCapabilityAndTheRebuild) {
  DeviceInfo gpu;
  gpu.ordinal = 3;
  gpu.name = "NVIDIA GeForce GTX 1080 Ti";
  gpu.cc_major = 6;
  gpu.cc_minor = 1;
  const std::string line = missing_kernel_image_message(gpu, "75,80,86,90");
  EXPECT_NE(line.find("GPU 3 (NVIDIA GeForce GTX 1080 Ti, compute capability 6.1)"),
            std::string::npos)
      << line;
  EXPECT_NE(line.find("built for CUDA architectures 75,80,86,90"), std::string::npos) << line;
  EXPECT_NE(line.find("-DH2D_CUDA_ARCHITECTURES=61"), std::string::npos) << line;
  EXPECT_EQ(line.find('\n'), std::string::npos);
  EXPECT_EQ(missing_kernel_image_message(gpu, "").find("built for"), std::string::npos);
}

TEST(StickyCudaError, TheCodesCudaSaysEndTheProcess) {
  // driver_types.h: "the process must be terminated and relaunched".
  for (int code : {700, 702, 710, 714, 715, 716, 717, 718, 719, 721, 810, 911, 226}) {
    EXPECT_TRUE(is_sticky_cuda_error(code)) << code;
  }
  // cudaErrorMemoryAllocation, cudaErrorInvalidValue, cudaErrorNotReady,
  // cudaErrorLaunchOutOfResources, cudaErrorNoKernelImageForDevice: the context survives.
  for (int code : {0, 1, 2, 600, 701, 209}) {
    EXPECT_FALSE(is_sticky_cuda_error(code)) << code;
  }
}

}  // namespace
}  // namespace h2d
