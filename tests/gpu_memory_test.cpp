// GPU tests of the harness core and the memory family. They skip, with the reason, without a GPU.

#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <thread>

#include "harness/core/checksum.hpp"
#include "harness/cuda/copy_timing.hpp"
#include "harness/cuda/cuda_error.hpp"
#include "harness/cuda/device.hpp"
#include "harness/cuda/device_buffer.hpp"
#include "harness/cuda/device_pattern.hpp"
#include "harness/cuda/event.hpp"
#include "harness/cuda/host_memory.hpp"
#include "harness/cuda/latch.hpp"
#include "harness/report/report_file.hpp"
#include "harness/topology/topology.hpp"
#include "tests/gpu_test_support.hpp"
#include "tests/process_runner.hpp"

namespace h2d {
namespace {

TEST(GpuDevice, DiscoveryDescribesEachDevice) {
  H2D_REQUIRE_GPU();
  for (const DeviceInfo& gpu : discover_devices().devices) {
    EXPECT_FALSE(gpu.name.empty());
    EXPECT_EQ(gpu.uuid.rfind("GPU-", 0), 0u) << gpu.uuid;
    EXPECT_TRUE(is_bus_id(gpu.pci_bus_id)) << gpu.pci_bus_id;  // 4- or 8-digit domain
    EXPECT_GE(gpu.cc_major, 3);
    EXPECT_GT(gpu.total_memory, 0u);
  }
  EXPECT_GT(discover_devices().driver_version, 0);
}

TEST(GpuHostMemory, EachKindIsWhatItClaims) {
  H2D_REQUIRE_GPU();
  for (HostKind kind : all_host_kinds()) {
    HostBuffer buffer(kind, 1 << 20);
    const ActualKind actual = actual_kind(buffer.data());
    EXPECT_EQ(actual, is_page_locked(kind) ? ActualKind::pinned : ActualKind::pageable)
        << to_string(kind);
  }
  HostBuffer mapped(HostKind::mapped, 4096);
  EXPECT_NE(mapped.device_pointer(), nullptr);
}

TEST(GpuPattern, DeviceFillAndChecksumMatchTheHost) {
  H2D_REQUIRE_GPU();
  Stream stream(0);
  for (std::size_t bytes :
       {std::size_t{1}, std::size_t{13}, std::size_t{4096}, (std::size_t{8} << 20) + 3}) {
    DeviceBuffer device(0, bytes);
    device_fill_pattern(device.data(), bytes, 99, stream);
    EXPECT_EQ(device_checksum(device.data(), bytes, stream), expected_checksum(bytes, 99)) << bytes;
    std::vector<unsigned char> host(bytes);
    H2D_CUDA_CHECK(cudaMemcpy(host.data(), device.data(), bytes, cudaMemcpyDeviceToHost));
    EXPECT_EQ(host_checksum(host.data(), bytes), expected_checksum(bytes, 99)) << bytes;
  }
}

// Every kind, direction and mode moves the right bytes (small sizes, checksum verified).
TEST(GpuCopies, EveryKindDirectionAndModeDeliversTheData) {
  H2D_REQUIRE_GPU();
  const std::size_t bytes = (std::size_t{1} << 20) + 8;
  Stream stream(0);
  Event start(0);
  Event stop(0);
  StreamLatch latch(0, Latching::on);
  for (HostKind kind :
       {HostKind::pageable, HostKind::pinned, HostKind::write_combined, HostKind::registered}) {
    for (Direction direction : {Direction::h2d, Direction::d2h}) {
      for (int mode = 0; mode < 2; ++mode) {
        HostBuffer host(kind, bytes);
        DeviceBuffer device(0, bytes);
        CopyJob job{nullptr, nullptr, bytes, direction, 3};
        if (direction == Direction::h2d) {
          fill_pattern(host.data(), bytes, 5);
          device_zero(device.data(), bytes, stream);
          job.destination = device.data();
          job.source = host.data();
        } else {
          device_fill_pattern(device.data(), bytes, 5, stream);
          std::memset(host.data(), 0, bytes);
          job.destination = host.data();
          job.source = device.data();
        }
        CopyTiming timing;
        if (mode == 0) {
          timing = time_sync(job);
        } else if (is_page_locked(kind)) {
          timing = time_latched_async(job, latch, stream, start, stop);
        } else {
          timing = time_unlatched_async(job, stream);
        }
        EXPECT_GT(timing.seconds, 0);
        const std::uint64_t sum = direction == Direction::h2d
                                      ? device_checksum(device.data(), bytes, stream)
                                      : host_checksum(host.data(), bytes);
        EXPECT_EQ(sum, expected_checksum(bytes, 5))
            << to_string(kind) << " " << to_string(direction) << " mode " << mode;
      }
    }
  }
}

TEST(GpuLatch, HoldsTheStreamUntilReleased) {
  H2D_REQUIRE_GPU();
  Stream stream(0);
  StreamLatch latch(0, Latching::on);
  Event after(0);
  LatchHold hold = latch.block(stream);
  after.record(stream.get());
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(after.ready()) << "the latch let work through before release";
  hold.release();
  stream.synchronize();
  EXPECT_TRUE(after.ready());
  EXPECT_FALSE(latch.timed_out());
}

TEST(GpuLatch, DeviceSideTimeoutEndsAForgottenLatch) {
  H2D_REQUIRE_GPU();
  Stream stream(0);
  StreamLatch latch(0, Latching::on, std::chrono::milliseconds(20));
  Event after(0);
  LatchHold hold = latch.block(stream);
  after.record(stream.get());
  after.synchronize();  // completes only because the kernel gave up
  EXPECT_TRUE(latch.timed_out());
  hold.release();
}

// "Non-blocking" from pinned memory: the enqueue returns while the copy is still waiting.
TEST(GpuAsync, PinnedEnqueueReturnsBeforeTheCopyCompletes) {
  H2D_REQUIRE_GPU();
  const std::size_t bytes = std::size_t{64} << 20;
  HostBuffer host(HostKind::pinned, bytes);
  fill_pattern(host.data(), bytes, 3);
  DeviceBuffer device(0, bytes);
  Stream stream(0);
  StreamLatch latch(0, Latching::on);
  Event done(0);
  LatchHold hold = latch.block(stream);
  H2D_CUDA_CHECK(
      cudaMemcpyAsync(device.data(), host.data(), bytes, cudaMemcpyHostToDevice, stream.get()));
  done.record(stream.get());
  EXPECT_FALSE(done.ready()) << "the async copy from pinned memory blocked the host";
  hold.release();
  stream.synchronize();
  EXPECT_EQ(device_checksum(device.data(), bytes, stream), expected_checksum(bytes, 3));
}

TEST(GpuMemoryFamily, QuickRunVerifiesEveryCase) {
  H2D_REQUIRE_GPU();
  testing::TempDir dir;
  const std::string out = dir.file("memory.json");
  const auto result = testing::run_process(
      testing::h2dbench() + " run --preset quick --filter '^h2d/memory/' --out " + out);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const Report report = read_report(out);
  EXPECT_TRUE(report.document["h2dbench"]["failed_cases"].empty());
  int cases = 0;
  for (const auto& run : report.document["benchmarks"]) {
    ++cases;
    EXPECT_FALSE(run.value("error_occurred", false)) << run["name"];
    EXPECT_GT(run["GB_per_s"].get<double>(), 0) << run["name"];
    const std::string name = run["name"];
    const bool pinned_kind = name.find("kind=pageable") == std::string::npos;
    EXPECT_EQ(run["host_pinned"].get<double>(), pinned_kind ? 1 : 0) << name;
  }
  // 2 directions x 4 kinds x 2 modes x 3 sizes, less d2h into write-combined memory (2 modes x
  // 3 sizes): it is host-write-only by design; and one of both directions at once (pinned, its
  // largest size), whose opposite copies are verified too; and the SMs copying (engine=sm) from
  // pinned and write-combined memory and into pinned memory at the 3 sizes.
  EXPECT_EQ(cases, 2 * 4 * 2 * 3 - 2 * 3 + 1 + 3 * 3);
}

// `h2dbench run --preset default --filter FILTER`, which must end well with `cases` cases measured
// or skipped, every skip's reason naming `skip_names`; its report.
Report default_run_of(const std::string& filter, std::size_t cases, const std::string& skip_names) {
  testing::TempDir dir;
  const std::string out = dir.file("default.json");
  const auto result = testing::run_process(
      testing::h2dbench() + " run --preset default --filter '" + filter + "' --out " + out);
  EXPECT_EQ(result.exit_code, 0) << result.output;
  Report report = read_report(out);
  EXPECT_TRUE(report.document["h2dbench"]["failed_cases"].empty()) << result.output;
  const auto& skipped = report.document["h2dbench"]["skipped_cases"];
  EXPECT_EQ(report.document["benchmarks"].size() + skipped.size(), cases) << result.output;
  for (const auto& skip : skipped) {
    EXPECT_NE(skip["reason"].get<std::string>().find(skip_names), std::string::npos) << skip.dump();
  }
  return report;
}

// pages=huge: pageable and registered buffers on huge pages copy and verify like the others and
// say how much of them huge pages back (or, on a machine without any, are skipped saying why):
// 2 directions x pageable sync, async and registered.
TEST(GpuMemoryFamily, HugePageCasesVerifyAndSayWhatTheyGot) {
  H2D_REQUIRE_GPU();
  const Report report = default_run_of("^h2d/memory/.*/pages=huge/bytes=4MiB$", 6, "pages=huge");
  for (const auto& run : report.document["benchmarks"]) {
    const std::string name = run["name"];
    EXPECT_GE(run["huge_page_pct"].get<double>(), 0) << name;
    EXPECT_LE(run["huge_page_pct"].get<double>(), 100) << name;
    EXPECT_EQ(run["host_pinned"].get<double>(),
              name.find("kind=registered") != std::string::npos ? 1 : 0)
        << name;
  }
}

// kind=managed: a managed buffer the host filled, prefetched to the device and read there intact
// (default's sizes; two of them here).
TEST(GpuMemoryFamily, ManagedMemoryIsPrefetchedAndVerifiedOrSkippedSayingWhy) {
  H2D_REQUIRE_GPU();
  const Report report =
      default_run_of("^h2d/memory/dir=h2d/kind=managed/mode=async/bytes=(4KiB|1MiB)$", 2,
                     "ConcurrentManagedAccess");
  for (const auto& run : report.document["benchmarks"]) {
    EXPECT_GT(run["GB_per_s"].get<double>(), 0) << run["name"];
  }
}

// cudaMemcpyAsync from pageable memory synchronizes before it copies, so a latch ahead of it would
// hold the copy until the latch's own timeout: pageable copies must run unlatched. One case, so a
// build that latches them fails in one timeout, not in one per case of the quick run above.
TEST(GpuMemoryFamily, PageableAsyncCopiesRunUnlatched) {
  H2D_REQUIRE_GPU();
  testing::TempDir dir;
  const std::string out = dir.file("pageable.json");
  const auto result =
      testing::run_process(testing::h2dbench() +
                           " run --preset quick --filter "
                           "'^h2d/memory/dir=h2d/kind=pageable/mode=async/bytes=4KiB$' --out " +
                           out);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const Report report = read_report(out);
  EXPECT_TRUE(report.document["h2dbench"]["failed_cases"].empty());
  ASSERT_EQ(report.document["benchmarks"].size(), 1u) << result.output;
  EXPECT_GT(report.document["benchmarks"][0]["GB_per_s"].get<double>(), 0);
}

}  // namespace
}  // namespace h2d
