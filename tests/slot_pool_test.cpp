#include "harness/pipeline/slot_pool.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <set>
#include <thread>
#include <vector>

namespace h2d {
namespace {

using namespace std::chrono_literals;

TEST(SlotPool, HandsOutEverySlotOnceThenBlocks) {
  SlotPool pool("ring", 3);
  std::set<std::size_t> taken;
  for (int i = 0; i < 3; ++i) {
    taken.insert(*pool.acquire());
  }
  EXPECT_EQ(taken, (std::set<std::size_t>{0, 1, 2}));
  EXPECT_EQ(pool.available(), 0u);
  auto waiting = std::async(std::launch::async, [&] { return pool.acquire(); });
  EXPECT_EQ(waiting.wait_for(50ms), std::future_status::timeout);
  pool.release(1);
  ASSERT_EQ(waiting.wait_for(2s), std::future_status::ready);
  EXPECT_EQ(waiting.get(), 1u);
}

// A released slot is handed out only after its fence has passed: the copy that read it is done.
TEST(SlotPool, WaitsForTheSlotsFenceBeforeHandingItOut) {
  std::atomic<bool> copy_pending{false};
  std::atomic<bool> copy_done{false};
  std::vector<std::size_t> fenced;  // written by whichever thread acquires, one at a time
  SlotPool pool("ring", 1, [&](std::size_t slot) {
    fenced.push_back(slot);
    while (copy_pending && !copy_done) {
      std::this_thread::sleep_for(1ms);
    }
    return true;
  });
  ASSERT_EQ(pool.acquire(), 0u);
  copy_pending = true;  // a copy out of slot 0 is in flight
  pool.release(0);
  auto refill = std::async(std::launch::async, [&] { return pool.acquire(); });
  EXPECT_EQ(refill.wait_for(50ms), std::future_status::timeout) << "slot reused before its copy";
  copy_done = true;
  ASSERT_EQ(refill.wait_for(2s), std::future_status::ready);
  EXPECT_EQ(refill.get(), 0u);
  EXPECT_EQ(fenced, (std::vector<std::size_t>{0, 0}));
}

TEST(SlotPool, CancelledFenceOrPoolGivesNothing) {
  SlotPool fenced("ring", 1, [](std::size_t) { return false; });
  EXPECT_EQ(fenced.acquire(), std::nullopt);

  SlotPool pool("ring", 1);
  ASSERT_TRUE(pool.acquire());
  auto blocked = std::async(std::launch::async, [&] { return pool.acquire(); });
  std::this_thread::sleep_for(20ms);
  pool.cancel();
  ASSERT_EQ(blocked.wait_for(2s), std::future_status::ready);
  EXPECT_EQ(blocked.get(), std::nullopt);
}

}  // namespace
}  // namespace h2d
