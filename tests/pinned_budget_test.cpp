#include "harness/core/pinned_budget.hpp"

#include <gtest/gtest.h>

#include "harness/core/system_memory.hpp"
#include "harness/cuda/host_memory.hpp"

namespace h2d {
namespace {

TEST(PinnedBudget, ReservationsAreReturnedWhenReleased) {
  PinnedBudget budget(1000, "test");
  {
    PinnedReservation a = budget.reserve(600, "a");
    EXPECT_EQ(budget.in_use(), 600u);
    PinnedReservation moved = std::move(a);
    EXPECT_EQ(budget.in_use(), 600u);
    PinnedReservation b = budget.reserve(400, "b");
    EXPECT_EQ(budget.in_use(), 1000u);
  }
  EXPECT_EQ(budget.in_use(), 0u);
}

TEST(PinnedBudget, OverTheCapFailsWithAClearMessage) {
  PinnedBudget budget(std::size_t{1} << 20, "a test cap");
  PinnedReservation held = budget.reserve(std::size_t{768} << 10, "first");
  try {
    budget.reserve(std::size_t{512} << 10, "the second buffer");
    FAIL() << "expected PinnedBudgetExceeded";
  } catch (const PinnedBudgetExceeded& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("the second buffer"), std::string::npos) << message;
    EXPECT_NE(message.find("1MiB"), std::string::npos) << message;
    EXPECT_NE(message.find("a test cap"), std::string::npos) << message;
  }
  EXPECT_EQ(budget.in_use(), std::size_t{768} << 10);
  EXPECT_THROW(budget.reserve(std::size_t{2} << 20, "huge"), PinnedBudgetExceeded);
}

// The cap is checked before any CUDA call, so this holds with or without a GPU.
TEST(PinnedBudget, PinnedHostBuffersAreChargedBeforeAllocating) {
  const std::size_t before = pinned_budget().limit();
  {
    const ScopedPinnedLimit limit(4096);
    EXPECT_THROW(HostBuffer(HostKind::pinned, 8192), PinnedBudgetExceeded);
    EXPECT_THROW(HostBuffer(HostKind::registered, 8192), PinnedBudgetExceeded);
    EXPECT_NO_THROW(HostBuffer(HostKind::pageable, 8192));  // pageable is not charged
    EXPECT_EQ(pinned_budget().in_use(), 0u);
  }
  EXPECT_EQ(pinned_budget().limit(), before) << "the scope's end gives the limit back";
}

// A run's limit comes and goes; what was pinned under it is handed back to the same accountant.
TEST(PinnedBudget, AScopedLimitLeavesReservationsWithTheProcessBudget) {
  const std::size_t before = pinned_budget().in_use();
  PinnedReservation held;
  {
    const ScopedPinnedLimit limit(std::size_t{1} << 20);
    EXPECT_EQ(pinned_budget().limit(), std::size_t{1} << 20);
    EXPECT_EQ(pinned_budget().origin(), "set by --pinned-limit");
    held = pinned_budget().reserve(4096, "a test block");
  }
  EXPECT_NE(pinned_budget().origin(), "set by --pinned-limit");
  EXPECT_EQ(pinned_budget().in_use(), before + 4096);
  held = PinnedReservation();
  EXPECT_EQ(pinned_budget().in_use(), before);
}

TEST(SystemMemory, ReadsMemAvailableFromMeminfo) {
  const std::string meminfo =
      "MemTotal:       16384000 kB\nMemFree:         1000000 kB\n"
      "MemAvailable:    8192000 kB\nBuffers:          100 kB\n";
  EXPECT_EQ(parse_meminfo_available(meminfo), std::size_t{8192000} * 1024);
  EXPECT_FALSE(parse_meminfo_available("MemTotal: 1 kB\n"));
  EXPECT_GT(available_memory_bytes(), 0u);
  EXPECT_GE(total_memory_bytes(), available_memory_bytes() / 2);
}

}  // namespace
}  // namespace h2d
