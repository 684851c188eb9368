// GPU tests of what a first run on a new rig meets (issue 12): the startup checks (kernel image,
// latch probe), runs without latches (CUDA_LAUNCH_BLOCKING=1, --profile), multi/scatter without
// peer access, and a sticky CUDA error. They pass on the simulated GPU and on real hardware; what
// only the sim can stage (no peer access, an injected error) skips elsewhere.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>

#include "harness/cuda/device.hpp"
#include "harness/cuda/gpu_backend.hpp"
#include "harness/cuda/kernel_image.hpp"
#include "harness/cuda/latch_probe.hpp"
#include "tests/gpu_test_support.hpp"
#include "tests/quick_run.hpp"

namespace h2d {
namespace {

using h2d_test::measured_entries;
using h2d_test::occurrences;
using h2d_test::QuickRun;
using h2d_test::run_quick;

const std::string kPinnedAsync = "'^h2d/memory/dir=h2d/kind=pinned/mode=async/bytes=1MiB$'";

TEST(StartupChecksGpu, EverySelectedGpuHasAKernelImage) {
  H2D_REQUIRE_GPU();
  for (const DeviceInfo& gpu : discover_devices().devices) {
    EXPECT_TRUE(has_kernel_image(gpu.ordinal)) << gpu.name;
  }
  EXPECT_NO_THROW(require_kernel_images(discover_devices().devices));
}

TEST(StartupChecksGpu, LatchProbeSeesTheKernelSpinAndReturnsQuickly) {
  H2D_REQUIRE_GPU();
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(latch_launch_returns_early(0));
  // Released at once, so below its own 200 ms timeout (a blocking launch takes all of it).
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(190));
}

// A launch that returns only when its kernel ends would hold every latched case until the latch's
// timeout, then fail it: the run goes without latches, says so once, and reports latched=0.
TEST(StartupChecksGpu, LaunchBlockingRunsWithoutLatches) {
  H2D_REQUIRE_GPU();
  const QuickRun run =
      run_quick("launch_blocking", "--filter " + kPinnedAsync, "CUDA_LAUNCH_BLOCKING=1");
  ASSERT_EQ(run.process.exit_code, 0) << run.process.output;
  EXPECT_EQ(occurrences(run.process.output, "a kernel launch waits here until its kernel ends"), 1u)
      << run.process.output;
  EXPECT_EQ(run.report["h2dbench"]["run"]["latches"]["enabled"], false);
  const auto measured = measured_entries(run.report, "h2d/memory/");
  ASSERT_EQ(measured.size(), 1u) << run.process.output;
  EXPECT_EQ(measured[0]["latched"], 0);
  EXPECT_GT(measured[0]["GB_per_s"].get<double>(), 0);
}

TEST(StartupChecksGpu, LatchesStayOnInANormalRunAndOffUnderProfile) {
  H2D_REQUIRE_GPU();
  const QuickRun normal = run_quick("latched", "--filter " + kPinnedAsync);
  ASSERT_EQ(normal.process.exit_code, 0) << normal.process.output;
  EXPECT_EQ(normal.report["h2dbench"]["run"]["latches"]["enabled"], true);
  ASSERT_EQ(measured_entries(normal.report, "h2d/memory/").size(), 1u);
  EXPECT_EQ(measured_entries(normal.report, "h2d/memory/")[0]["latched"], 1);

  const QuickRun profile = run_quick("profile", "--profile --filter " + kPinnedAsync);
  ASSERT_EQ(profile.process.exit_code, 0) << profile.process.output;
  EXPECT_EQ(profile.report["h2dbench"]["run"]["latches"]["enabled"], false);
  ASSERT_EQ(measured_entries(profile.report, "h2d/memory/").size(), 1u);
  EXPECT_EQ(measured_entries(profile.report, "h2d/memory/")[0]["latched"], 0);
}

// Without peer access the driver stages cudaMemcpyPeerAsync through the host and holds the thread:
// behind a latch that was a 10 s stall and a failed case. The sim stages that with H2D_SIM_PEER;
// on hardware the run uses what the GPUs have, and latched must follow p2p either way. Also
// multi/h2d_concurrent's untimed warm-up window.
TEST(StartupChecksGpu, ScatterLatchesOnlyWithPeerAccessAndConcurrentWarmsUp) {
  H2D_REQUIRE_GPU();
  // The simulated rig below has 2 GPUs whatever this process sees; a real one must have them, or
  // the run refuses the filter (no case matches) before any skip (failed so on one H200).
  const std::size_t gpus = discover_devices().devices.size();
  if (!gpu_backend_is_simulated() && gpus < 2) {
    GTEST_SKIP() << "multi/scatter and multi/h2d_concurrent need 2 GPUs; " << gpus << " here";
  }
  for (const char* peer : {"none", "all"}) {
    const QuickRun run = run_quick(std::string("scatter_") + peer,
                                   "--devices all --filter "
                                   "'^multi/(scatter/.*route=via_gpu0|h2d_concurrent/gpus=0,1/)'",
                                   std::string("H2D_SIM_DEVICES=2 H2D_SIM_PEER=") + peer);
    ASSERT_EQ(run.process.exit_code, 0) << peer << "\n" << run.process.output;
    const auto via = measured_entries(run.report, "multi/scatter/");
    if (via.empty()) {
      GTEST_SKIP() << "multi/scatter needs 2 GPUs; " << discover_devices().devices.size()
                   << " here";
    }
    for (const auto& entry : via) {
      EXPECT_EQ(entry["latched"], entry["p2p"]) << entry.dump();
      if (gpu_backend_is_simulated()) {
        EXPECT_EQ(entry["p2p"], std::string(peer) == "all" ? 1 : 0) << entry.dump();
      }
    }
    for (const auto& entry : measured_entries(run.report, "multi/h2d_concurrent/")) {
      EXPECT_EQ(entry["warmup_windows"], 1) << entry.dump();
    }
  }
}

// After a sticky error (cudaErrorIllegalAddress) every CUDA call fails: one line says so, the GPU
// cases left are skipped with that reason, the host case still runs and the report is written.
TEST(StartupChecksGpu, StickyErrorStopsTheGpuCasesAndKeepsTheReport) {
  H2D_REQUIRE_GPU();
  if (!gpu_backend_is_simulated()) {
    GTEST_SKIP() << "an illegal address is injected by the simulated GPU (H2D_SIM_FAULTS)";
  }
  const QuickRun run = run_quick(
      "sticky",
      "--filter '^(h2d/memory/dir=h2d/kind=pinned/mode=async/bytes=(1MiB|4KiB)|host/memcpy/"
      "threads=1/bytes=1MiB)$'",
      "H2D_SIM_FAULTS=cudaMemcpyAsync#1=cudaErrorIllegalAddress");
  EXPECT_EQ(run.process.exit_code, 1) << run.process.output;
  EXPECT_EQ(occurrences(run.process.output, "failed with a sticky CUDA error"), 1u)
      << run.process.output;
  ASSERT_TRUE(run.report.contains("h2dbench")) << run.process.output;
  ASSERT_EQ(run.report["h2dbench"]["failed_cases"].size(), 1u) << run.report["h2dbench"].dump();
  EXPECT_EQ(run.report["h2dbench"]["failed_cases"][0]["kind"], "sticky_error");
  std::size_t skipped_after = 0;
  for (const auto& skipped : run.report["h2dbench"]["skipped_cases"]) {
    if (skipped["kind"] == "after_sticky_error") {
      EXPECT_NE(skipped["reason"].get<std::string>().find("sticky CUDA error"), std::string::npos);
      ++skipped_after;
    }
  }
  EXPECT_GE(skipped_after, 1u) << run.report["h2dbench"]["skipped_cases"].dump();
  // One line counts them; no line a case.
  EXPECT_EQ(occurrences(run.process.output, "after the sticky CUDA error"), 1u)
      << run.process.output;
  EXPECT_EQ(measured_entries(run.report, "host/memcpy/").size(), 1u) << run.process.output;
}

}  // namespace
}  // namespace h2d
