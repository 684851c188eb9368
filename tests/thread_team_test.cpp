#include "harness/host/thread_team.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <vector>

namespace h2d {
namespace {

TEST(ThreadTeam, RunsEveryIndexOncePerRun) {
  ThreadTeam team(4, "test");
  std::vector<std::atomic<int>> hits(4);
  for (int round = 0; round < 50; ++round) {
    team.run([&](std::size_t index) { hits[index].fetch_add(1); });
  }
  for (auto& count : hits) {
    EXPECT_EQ(count.load(), 50);
  }
}

TEST(ThreadTeam, RethrowsTheFirstErrorAndStaysUsable) {
  ThreadTeam team(3, "test");
  EXPECT_THROW(team.run([](std::size_t index) {
    if (index == 1) {
      throw std::runtime_error("boom");
    }
  }),
               std::runtime_error);
  std::atomic<int> ran{0};
  team.run([&](std::size_t) { ran.fetch_add(1); });
  EXPECT_EQ(ran.load(), 3);
}

TEST(ThreadTeam, ZeroThreadsIsRefused) {
  EXPECT_THROW(ThreadTeam(0, "x"), std::invalid_argument);
}

TEST(SplitRange, CoversEverythingWithoutOverlap) {
  for (std::size_t total : {0u, 1u, 7u, 100u, 1023u}) {
    for (std::size_t parts : {1u, 2u, 3u, 8u}) {
      std::size_t expected_begin = 0;
      for (std::size_t i = 0; i < parts; ++i) {
        const auto [begin, end] = split_range(total, parts, i);
        EXPECT_EQ(begin, expected_begin);
        EXPECT_LE(end - begin, total / parts + 1);
        expected_begin = end;
      }
      EXPECT_EQ(expected_begin, total);
    }
  }
}

}  // namespace
}  // namespace h2d
