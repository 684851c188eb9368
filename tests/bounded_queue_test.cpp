#include "harness/core/bounded_queue.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <numeric>
#include <thread>
#include <vector>

namespace h2d {
namespace {

using namespace std::chrono_literals;

TEST(BoundedQueue, KeepsOrderAndCapacity) {
  BoundedQueue<int> queue("q", 2);
  EXPECT_TRUE(queue.push(1));
  EXPECT_TRUE(queue.push(2));
  EXPECT_EQ(queue.size(), 2u);
  EXPECT_EQ(queue.pop(), 1);
  EXPECT_EQ(queue.pop(), 2);
  EXPECT_THROW(BoundedQueue<int>("zero", 0), std::invalid_argument);
}

TEST(BoundedQueue, PushBlocksWhileFull) {
  BoundedQueue<int> queue("q", 1);
  ASSERT_TRUE(queue.push(1));
  std::atomic<bool> pushed{false};
  std::thread producer([&] {
    queue.push(2);
    pushed = true;
  });
  std::this_thread::sleep_for(50ms);
  EXPECT_FALSE(pushed.load()) << "push returned although the queue was full";
  EXPECT_EQ(queue.pop(), 1);
  producer.join();
  EXPECT_TRUE(pushed.load());
  EXPECT_EQ(queue.pop(), 2);
}

TEST(BoundedQueue, CloseDrainsThenEnds) {
  BoundedQueue<int> queue("q", 4);
  queue.push(7);
  queue.close();
  EXPECT_EQ(queue.pop(), 7);
  EXPECT_EQ(queue.pop(), std::nullopt);
  EXPECT_THROW(queue.push(8), std::logic_error);
}

TEST(BoundedQueue, CloseWakesBlockedConsumers) {
  BoundedQueue<int> queue("q", 1);
  auto first = std::async(std::launch::async, [&] { return queue.pop(); });
  auto second = std::async(std::launch::async, [&] { return queue.pop(); });
  std::this_thread::sleep_for(20ms);
  queue.close();
  EXPECT_EQ(first.wait_for(2s), std::future_status::ready);
  EXPECT_EQ(second.wait_for(2s), std::future_status::ready);
  EXPECT_EQ(first.get(), std::nullopt);
  EXPECT_EQ(second.get(), std::nullopt);
}

// Shutdown while blocked: cancel releases a producer stuck on a full queue and a consumer stuck on
// an empty one, and everything after it returns at once.
TEST(BoundedQueue, CancelReleasesBlockedProducersAndConsumers) {
  BoundedQueue<int> full("full", 1);
  full.push(1);
  BoundedQueue<int> empty("empty", 1);
  auto producer = std::async(std::launch::async, [&] { return full.push(2); });
  auto consumer = std::async(std::launch::async, [&] { return empty.pop(); });
  std::this_thread::sleep_for(20ms);
  full.cancel();
  empty.cancel();
  ASSERT_EQ(producer.wait_for(2s), std::future_status::ready);
  ASSERT_EQ(consumer.wait_for(2s), std::future_status::ready);
  EXPECT_FALSE(producer.get());
  EXPECT_EQ(consumer.get(), std::nullopt);
  EXPECT_EQ(full.pop(), std::nullopt) << "a cancelled queue hands out nothing";
  EXPECT_FALSE(empty.push(3));
}

// Many producers and consumers: every item arrives exactly once (and TSan sees the hand-offs).
TEST(BoundedQueue, ManyProducersAndConsumersLoseNothing) {
  constexpr int kProducers = 4;
  constexpr int kConsumers = 3;
  constexpr int kItems = 2000;
  BoundedQueue<int> queue("q", 3);
  std::atomic<int> producers_left{kProducers};
  std::vector<std::thread> threads;
  for (int p = 0; p < kProducers; ++p) {
    threads.emplace_back([&, p] {
      for (int i = 0; i < kItems; ++i) {
        queue.push(p * kItems + i);
      }
      if (producers_left.fetch_sub(1) == 1) {
        queue.close();
      }
    });
  }
  std::vector<std::vector<int>> received(kConsumers);
  for (int c = 0; c < kConsumers; ++c) {
    threads.emplace_back([&, c] {
      while (auto item = queue.pop()) {
        received[c].push_back(*item);
      }
    });
  }
  for (auto& thread : threads) {
    thread.join();
  }
  std::vector<int> all;
  for (const auto& part : received) {
    all.insert(all.end(), part.begin(), part.end());
  }
  std::sort(all.begin(), all.end());
  std::vector<int> expected(kProducers * kItems);
  std::iota(expected.begin(), expected.end(), 0);
  EXPECT_EQ(all, expected);
}

}  // namespace
}  // namespace h2d
