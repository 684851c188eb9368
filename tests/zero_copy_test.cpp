#include <gtest/gtest.h>

#include <set>

#include "harness/core/case_name.hpp"
#include "harness/core/checksum.hpp"
#include "harness/cuda/cuda_error.hpp"
#include "harness/cuda/device_buffer.hpp"
#include "harness/cuda/device_pattern.hpp"
#include "harness/cuda/host_memory.hpp"
#include "harness/cuda/scoped_device.hpp"
#include "harness/cuda/stream.hpp"
#include "harness/strategy/strategy_grids.hpp"
#include "kernels/zero_copy_read.cuh"
#include "tests/strategy_test_support.hpp"

namespace h2d {
namespace {

constexpr std::size_t MiB = std::size_t{1} << 20;

TEST(ZeroCopyGrid, SmallSizesFromSixtyFourBytes) {
  EXPECT_EQ(zero_copy_sizes(Preset::quick).front(), 64u);
  EXPECT_LE(zero_copy_sizes(Preset::quick).size(), 3u);
  EXPECT_EQ(zero_copy_sizes(Preset::standard).front(), 64u);
  EXPECT_EQ(zero_copy_sizes(Preset::standard).back(), 1 * MiB);
  EXPECT_GT(zero_copy_sizes(Preset::full).back(), 1 * MiB);
}

TEST(ZeroCopyFamily, CasesPairMappedAndCopyPaths) {
  EXPECT_TRUE(test::find_family("h2d/zero_copy").needs_gpu);
  const auto cases = test::family_cases("h2d/zero_copy", Preset::quick);
  EXPECT_EQ(cases.size(), 2 * zero_copy_sizes(Preset::quick).size());
  std::set<std::string> paths;
  for (const BenchmarkCase& c : cases) {
    paths.insert(parse_case_name(c.name).get("path"));
  }
  EXPECT_EQ(paths, (std::set<std::string>{"mapped", "copy"}));
}

// --- GPU
// ------------------------------------------------------------------------------------------

std::uint64_t read_checksum(const void* data, std::size_t bytes, const Stream& stream) {
  return device_checksum(data, bytes, stream, kernels::launch_read_checksum);
}

TEST(ZeroCopyReadGpu, ChecksumMatchesForMappedAndDeviceMemoryAlignedOrNot) {
  H2D_REQUIRE_GPU();
  ScopedDevice on(0);
  Stream stream(0);
  constexpr std::uint64_t seed = 1234;
  for (std::size_t bytes :
       {std::size_t{1}, std::size_t{7}, std::size_t{8}, std::size_t{15}, std::size_t{16},
        std::size_t{17}, std::size_t{64}, std::size_t{4099}, MiB + 5}) {
    // offset 0 takes the 16-byte path, offset 1 the word path (different alignment, same data).
    for (std::size_t offset : {std::size_t{0}, std::size_t{1}}) {
      HostBuffer mapped(HostKind::mapped, bytes + offset);
      fill_pattern(mapped.data() + offset, bytes, seed);
      const auto* view = static_cast<const std::byte*>(mapped.device_pointer()) + offset;
      EXPECT_EQ(read_checksum(view, bytes, stream), expected_checksum(bytes, seed))
          << "mapped, " << bytes << " bytes at offset " << offset;
      DeviceBuffer device(0, bytes + offset);
      H2D_CUDA_CHECK(cudaMemcpy(device.data() + offset, mapped.data() + offset, bytes,
                                cudaMemcpyHostToDevice));
      EXPECT_EQ(read_checksum(device.data() + offset, bytes, stream),
                expected_checksum(bytes, seed))
          << "device, " << bytes << " bytes at offset " << offset;
    }
  }
}

TEST(ZeroCopyReadGpu, DifferentDataGivesADifferentSum) {
  H2D_REQUIRE_GPU();
  ScopedDevice on(0);
  Stream stream(0);
  HostBuffer mapped(HostKind::mapped, 4096);
  fill_pattern(mapped.data(), 4096, 1);
  mapped.data()[100] ^= std::byte{1};
  EXPECT_NE(read_checksum(mapped.device_pointer(), 4096, stream), expected_checksum(4096, 1));
}

TEST(ZeroCopyFamilyGpu, QuickRunVerifiesBothPaths) {
  H2D_REQUIRE_GPU();
  const nlohmann::json report = test::run_quick("^h2d/zero_copy/", "zero_copy");
  ASSERT_TRUE(report.contains("benchmarks"));
  EXPECT_TRUE(report["h2dbench"]["failed_cases"].empty()) << report["h2dbench"].dump();
  for (const auto& run : report["benchmarks"]) {
    EXPECT_FALSE(run.value("error_occurred", false)) << run.dump();
    EXPECT_GT(run.value("GB_per_s", 0.0), 0.0) << run["name"];
  }
}

}  // namespace
}  // namespace h2d
