// GPU tests of the multi-GPU and NUMA pieces: they skip, with the reason, without a usable GPU.

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "harness/core/checksum.hpp"
#include "harness/cuda/cuda_error.hpp"
#include "harness/cuda/device.hpp"
#include "harness/cuda/device_buffer.hpp"
#include "harness/cuda/device_pattern.hpp"
#include "harness/cuda/host_memory.hpp"
#include "harness/cuda/local_pinned_buffer.hpp"
#include "harness/cuda/numa_host_buffer.hpp"
#include "harness/cuda/peer_access.hpp"
#include "harness/cuda/scoped_device.hpp"
#include "harness/strategy/concurrent_copies.hpp"
#include "harness/suite/case_skip.hpp"
#include "harness/suite/run_topology.hpp"
#include "harness/topology/topology.hpp"
#include "tests/gpu_test_support.hpp"
#include "tests/h2dbench_process.hpp"

namespace h2d {
namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;

TEST(MultiGpu, ConcurrentWindowCoversEveryGpusOwnSpan) {
  H2D_REQUIRE_GPU();
  const std::size_t bytes = 16 * kMiB;
  std::vector<std::unique_ptr<LocalPinnedBuffer>> hosts;
  std::vector<DeviceBuffer> buffers;
  std::vector<ConcurrentLane> lanes;
  for (const DeviceInfo& gpu : discover_devices().devices) {
    hosts.push_back(
        std::make_unique<LocalPinnedBuffer>(bytes, run_topology().numa_node_of(gpu.ordinal)));
    fill_pattern(hosts.back()->data(), bytes, 7 + gpu.ordinal);
    buffers.emplace_back(gpu.ordinal, bytes);
    CopyJob job;
    job.destination = buffers.back().data();
    job.source = hosts.back()->data();
    job.bytes = bytes;
    job.copies = 4;
    lanes.push_back({gpu.ordinal, job});
  }
  ConcurrentCopies rig(lanes, Latching::on);
  for (int window = 0; window < 3; ++window) {
    const ConcurrentTiming timing = rig.measure();
    ASSERT_EQ(timing.lane_seconds.size(), lanes.size());
    EXPECT_GT(timing.window_seconds, 0);
    for (double lane : timing.lane_seconds) {
      EXPECT_GT(lane, 0);
      // A GPU's own span lies inside the host window (which also holds the release and wake-up).
      EXPECT_LE(lane, timing.window_seconds * 1.02 + 20e-6);
    }
  }
  for (std::size_t i = 0; i < lanes.size(); ++i) {
    Stream stream(lanes[i].device);
    EXPECT_EQ(device_checksum(buffers[i].data(), bytes, stream),
              expected_checksum(bytes, 7 + static_cast<std::uint64_t>(lanes[i].device)));
  }
}

TEST(MultiGpu, ConcurrentCopiesRefusePageableMemory) {
  H2D_REQUIRE_GPU();
  HostBuffer pageable(HostKind::pageable, kMiB);
  DeviceBuffer device(0, kMiB);
  CopyJob job;
  job.destination = device.data();
  job.source = pageable.data();
  job.bytes = kMiB;
  EXPECT_THROW(ConcurrentCopies({{0, job}}, Latching::on), std::logic_error);
}

TEST(MultiGpu, NumaBufferIsPinnedOnItsNode) {
  H2D_REQUIRE_GPU();
  const int node = std::max(0, run_topology().numa_node_of(0));
  if (const std::string why = numa_placement_unavailable(node); !why.empty()) {
    GTEST_SKIP() << why;
  }
  NumaHostBuffer host;
  try {
    host = NumaHostBuffer(8 * kMiB, node);
  } catch (const CaseSkipped& refused) {  // e.g. a container that may not bind memory (mbind)
    GTEST_SKIP() << refused.what();
  }
  EXPECT_EQ(host.numa_node(), node);
  ScopedDevice on(0);
  EXPECT_EQ(actual_kind(host.data()), ActualKind::pinned);
  fill_pattern(host.data(), host.size(), 11);
  DeviceBuffer device(0, host.size());
  H2D_CUDA_CHECK(cudaMemcpy(device.data(), host.data(), host.size(), cudaMemcpyHostToDevice));
  Stream stream(0);
  EXPECT_EQ(device_checksum(device.data(), host.size(), stream),
            expected_checksum(host.size(), 11));
}

TEST(MultiGpu, UnplacedBufferFallsBackToPortablePinned) {
  H2D_REQUIRE_GPU();
  LocalPinnedBuffer buffer(kMiB, -1);
  EXPECT_FALSE(buffer.numa_placed());
  EXPECT_FALSE(buffer.why_not_placed().empty());
  ScopedDevice on(0);
  EXPECT_EQ(actual_kind(buffer.data()), ActualKind::pinned);
}

TEST(MultiGpu, PeerAccessBetweenTwoGpus) {
  H2D_REQUIRE_GPU();
  if (discover_devices().devices.size() < 2) {
    GTEST_SKIP() << "needs 2 GPUs; " << discover_devices().devices.size() << " here";
  }
  int can = 0;
  H2D_CUDA_CHECK(cudaDeviceCanAccessPeer(&can, 1, 0));
  {
    PeerAccess access(1, 0);
    EXPECT_EQ(access.enabled(), can != 0);
  }
  PeerAccess again(1, 0);  // disabled by the first on its way out, so it can be enabled again
  EXPECT_EQ(again.enabled(), can != 0);
}

// The quick multi-GPU run end to end: a report with the topology, link_pct on what ran, and the
// reason for what could not.
TEST(MultiGpu, QuickRunReportsLinkPercentAndSkips) {
  H2D_REQUIRE_GPU();
  const std::filesystem::path folder = h2d_test::scratch_folder("multi_quick");
  const std::filesystem::path out = folder / "report.json";
  const auto run = h2d_test::run_h2dbench(
      "run --preset quick --devices all --filter "
      "'^(multi/|h2d/memory/.*kind=pinned/mode=async/bytes=64MiB)' --out " +
      h2d_test::shell_quote(out.string()));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  std::ifstream file(out);
  const nlohmann::json report = nlohmann::json::parse(file);
  std::filesystem::remove_all(folder);
  const nlohmann::json& topology = report["h2dbench"]["topology"];
  ASSERT_TRUE(topology.contains("gpus"));
  const bool gpus_in_topology = !topology["gpus"].empty();
  int concurrent = 0;
  for (const auto& entry : report["benchmarks"]) {
    const std::string name = entry["name"];
    if (entry.value("error_occurred", false)) {
      continue;
    }
    if (name.rfind("multi/h2d_concurrent/", 0) == 0) {
      ++concurrent;
      EXPECT_GT(entry["GB_per_s"].get<double>(), 0) << name;
      EXPECT_LE(entry["GB_per_s"].get<double>(), entry["sum_gpu_GB_per_s"].get<double>() * 1.05)
          << name;
    }
    if (gpus_in_topology && entry.contains("GB_per_s")) {
      ASSERT_TRUE(entry.contains("link_pct")) << name;
      EXPECT_GT(entry["link_pct"].get<double>(), 0) << name;
      EXPECT_LT(entry["link_pct"].get<double>(), 110) << name << ": faster than the link?";
    }
  }
  EXPECT_GE(concurrent, 1);
  if (discover_devices().devices.size() == 1) {
    bool said = false;
    for (const auto& skipped : report["h2dbench"]["skipped_cases"]) {
      said = said || skipped["name"] == "multi/scatter/gpus=several";
    }
    EXPECT_TRUE(said) << report["h2dbench"]["skipped_cases"].dump();
  }
}

}  // namespace
}  // namespace h2d
