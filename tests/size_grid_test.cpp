#include "harness/core/size_grid.hpp"

#include <gtest/gtest.h>

#include "harness/core/host_threads.hpp"

namespace h2d {
namespace {

TEST(SizeGrid, GeometricIncludesBothEnds) {
  EXPECT_EQ(geometric_sizes(1, 16, 2), (std::vector<std::size_t>{1, 2, 4, 8, 16}));
  EXPECT_EQ(geometric_sizes(1, 20, 4), (std::vector<std::size_t>{1, 4, 16}));
  EXPECT_THROW(geometric_sizes(0, 4, 2), std::invalid_argument);
  EXPECT_THROW(geometric_sizes(8, 4, 2), std::invalid_argument);
  EXPECT_THROW(geometric_sizes(1, 4, 1), std::invalid_argument);
}

TEST(SizeGrid, PresetsSpanFourKibToOneGib) {
  const auto standard = transfer_sizes(Preset::standard);
  EXPECT_EQ(standard.front(), 4096u);
  EXPECT_EQ(standard.back(), std::size_t{1} << 30);
  EXPECT_EQ(standard.size(), 10u);  // powers of 4
  const auto full = transfer_sizes(Preset::full);
  EXPECT_EQ(full.size(), 19u);  // powers of 2
  EXPECT_LE(transfer_sizes(Preset::quick).size(), 4u);
}

TEST(HostThreads, PowersOfTwoAndTheCoreCount) {
  EXPECT_EQ(host_thread_counts(Preset::standard, 6), (std::vector<std::size_t>{1, 2, 4, 6}));
  EXPECT_EQ(host_thread_counts(Preset::standard, 8), (std::vector<std::size_t>{1, 2, 4, 8}));
  EXPECT_EQ(host_thread_counts(Preset::quick, 8), (std::vector<std::size_t>{1, 8}));
  EXPECT_EQ(host_thread_counts(Preset::quick, 1), (std::vector<std::size_t>{1}));
  EXPECT_GE(usable_cores(), 1u);
}

}  // namespace
}  // namespace h2d
