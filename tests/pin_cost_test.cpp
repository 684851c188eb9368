#include <gtest/gtest.h>

#include <limits>
#include <set>
#include <stdexcept>

#include "harness/core/byte_size.hpp"
#include "harness/core/case_name.hpp"
#include "harness/core/host_threads.hpp"
#include "harness/core/pow2_rounding.hpp"
#include "harness/cuda/host_memory.hpp"
#include "harness/cuda/scoped_device.hpp"
#include "harness/strategy/pinned_cache.hpp"
#include "harness/strategy/strategy_grids.hpp"
#include "tests/strategy_test_support.hpp"

namespace h2d {
namespace {

constexpr std::size_t KiB = std::size_t{1} << 10;
constexpr std::size_t MiB = std::size_t{1} << 20;

TEST(Pow2Rounding, RoundsUpToThePowerOfTwoACachingAllocatorReserves) {
  EXPECT_EQ(round_up_pow2(1), 1u);
  EXPECT_EQ(round_up_pow2(2), 2u);
  EXPECT_EQ(round_up_pow2(3), 4u);
  EXPECT_EQ(round_up_pow2(4096), 4096u);
  EXPECT_EQ(round_up_pow2(4097), 8192u);
  EXPECT_EQ(round_up_pow2(96 * MiB), 128 * MiB);
  constexpr std::size_t top = (std::numeric_limits<std::size_t>::max() >> 1) + 1;
  EXPECT_EQ(round_up_pow2(top), top);
  EXPECT_THROW(round_up_pow2(top + 1), std::overflow_error);
  EXPECT_THROW(round_up_pow2(0), std::invalid_argument);
}

TEST(Pow2Rounding, WasteIsWhatWasPinnedBeyondTheRequest) {
  EXPECT_DOUBLE_EQ(rounding_waste_pct(64 * MiB), 0.0);
  EXPECT_DOUBLE_EQ(rounding_waste_pct(1), 0.0);
  EXPECT_NEAR(rounding_waste_pct(3 * MiB), 100.0 / 3.0, 1e-9);  // 4 MiB pinned for 3
  EXPECT_NEAR(rounding_waste_pct(5 * MiB), 60.0, 1e-9);         // 8 MiB pinned for 5
  // Just past a power of two the allocator pins almost twice the request.
  EXPECT_GT(rounding_waste_pct(64 * MiB + 1), 99.99);
  EXPECT_LT(rounding_waste_pct(64 * MiB + 1), 100.0);
  EXPECT_THROW(rounding_waste_pct(0), std::invalid_argument);
}

TEST(PinCostGrid, CachedRequestsAreOneAndAHalfPowersOfTwo) {
  for (Preset preset : {Preset::quick, Preset::standard, Preset::full}) {
    const auto sizes = cached_request_sizes(preset);
    ASSERT_FALSE(sizes.empty());
    for (std::size_t bytes : sizes) {
      EXPECT_NEAR(rounding_waste_pct(bytes), 100.0 / 3.0, 1e-9) << bytes;
      EXPECT_LE(round_up_pow2(bytes), 512 * MiB);
    }
  }
  EXPECT_EQ(pin_cost_sizes(Preset::quick), (std::vector<std::size_t>{1 * MiB, 64 * MiB}));
  EXPECT_EQ(pin_cost_sizes(Preset::full).front(), 4 * KiB);
}

TEST(PinCostFamily, QuickCasesCoverEveryOperation) {
  EXPECT_TRUE(test::find_family("h2d/pin_cost").needs_gpu);
  const auto cases = test::family_cases("h2d/pin_cost", Preset::quick);
  const std::vector<std::size_t> threads = host_thread_counts(Preset::quick, usable_cores());
  EXPECT_EQ(cases.size(), (3 + threads.size()) * pin_cost_sizes(Preset::quick).size() +
                              2 * cached_request_sizes(Preset::quick).size());
  std::set<std::string> ops;
  std::set<std::string> fault_threads;  // op=register threads=N: PyTorch's register threads
  for (const BenchmarkCase& c : cases) {
    const ParsedCaseName parsed = parse_case_name(c.name);
    ops.insert(parsed.get("op"));
    if (!parsed.get("threads").empty()) {
      EXPECT_EQ(parsed.get("op"), "register") << c.name;
      EXPECT_DOUBLE_EQ(c.params.at("threads"), std::stod(parsed.get("threads"))) << c.name;
      fault_threads.insert(parsed.get("threads"));
    }
    const bool cached = parsed.get("op").rfind("cache_", 0) == 0;
    EXPECT_EQ(c.params.count("rounding_waste_pct"), cached ? 1u : 0u) << c.name;
    if (cached) {
      EXPECT_DOUBLE_EQ(c.params.at("rounding_waste_pct"),
                       rounding_waste_pct(parse_bytes(parsed.get("bytes"))));
    }
  }
  EXPECT_EQ(ops, (std::set<std::string>{"malloc_host", "host_alloc_wc", "register", "cache_miss",
                                        "cache_hit"}));
  EXPECT_EQ(fault_threads.size(), threads.size());
  EXPECT_EQ(fault_threads.count("1"), 1u);
}

// --- GPU
// ------------------------------------------------------------------------------------------

TEST(PinnedCacheGpu, FirstRequestPinsAndAReturnedBlockIsReused) {
  H2D_REQUIRE_GPU();
  ScopedDevice on(0);
  PinnedCache cache;
  HostBuffer first = cache.take(3 * MiB);
  EXPECT_EQ(first.size(), 4 * MiB);
  EXPECT_EQ(actual_kind(first.data()), ActualKind::pinned);
  EXPECT_EQ(cache.misses(), 1u);
  std::byte* const address = first.data();
  cache.give_back(std::move(first));
  EXPECT_EQ(cache.cached_blocks(), 1u);
  HostBuffer again = cache.take(4 * MiB - 5);  // same rounded size: a hit
  EXPECT_EQ(again.data(), address);
  EXPECT_EQ(cache.hits(), 1u);
  HostBuffer other = cache.take(5 * MiB);  // a different size: a miss
  EXPECT_EQ(other.size(), 8 * MiB);
  EXPECT_EQ(cache.misses(), 2u);
  EXPECT_THROW(cache.give_back(HostBuffer(HostKind::pageable, 4096)), std::invalid_argument);
}

TEST(PinCostFamilyGpu, QuickRunMeasuresAndVerifiesEveryOperation) {
  H2D_REQUIRE_GPU();
  const nlohmann::json report = test::run_quick("^h2d/pin_cost/", "pin_cost");
  ASSERT_TRUE(report.contains("benchmarks"));
  EXPECT_TRUE(report["h2dbench"]["failed_cases"].empty()) << report["h2dbench"].dump();
  std::size_t fresh = 0;
  for (const auto& run : report["benchmarks"]) {
    EXPECT_FALSE(run.value("error_occurred", false)) << run.dump();
    EXPECT_GT(run.value("pin_us", 0.0), 0.0) << run["name"];
    if (run["name"].get<std::string>().find("/threads=") != std::string::npos) {
      ++fresh;  // fresh pages faulted in and registered, then verified as page-locked
      EXPECT_GT(run.value("unpin_us", 0.0), 0.0) << run["name"];
      EXPECT_GE(run.value("threads", 0.0), 1.0) << run["name"];
    }
  }
  EXPECT_GE(fresh, 2u);
}

}  // namespace
}  // namespace h2d
