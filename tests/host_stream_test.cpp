#include "harness/host/host_stream.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <thread>
#include <vector>

namespace h2d {
namespace {

using namespace std::chrono_literals;

TEST(HostStream, RunsTasksInOrder) {
  std::vector<int> order;  // written by the stream thread only, read after synchronize()
  HostStream stream("s");
  for (int i = 0; i < 100; ++i) {
    stream.enqueue([&order, i] { order.push_back(i); });
  }
  stream.synchronize();
  ASSERT_EQ(order.size(), 100u);
  for (int i = 0; i < 100; ++i) {
    EXPECT_EQ(order[static_cast<std::size_t>(i)], i);
  }
}

TEST(HostEvent, WaitsForTheWorkQueuedBeforeIt) {
  Cancellation never;
  HostStream stream("s");
  std::atomic<bool> release{false};
  int value = 0;
  stream.enqueue([&] {
    while (!release) {
      std::this_thread::sleep_for(1ms);
    }
    value = 42;
  });
  HostEvent event;
  event.record(stream);
  auto waiter = std::async(std::launch::async, [&] { return event.wait(never); });
  EXPECT_EQ(waiter.wait_for(30ms), std::future_status::timeout);
  release = true;
  ASSERT_EQ(waiter.wait_for(2s), std::future_status::ready);
  EXPECT_TRUE(waiter.get());
  EXPECT_EQ(value, 42) << "the event passed before the work it marks";
  HostEvent unrecorded;
  EXPECT_TRUE(unrecorded.wait(never));
}

// cudaStreamWaitEvent on the host: the second stream's task runs after the first stream's.
TEST(HostEvent, OrdersTwoStreams) {
  Cancellation never;
  HostStream copy("copy");
  HostStream compute("compute");
  std::vector<int> data(1000, 0);
  long sum = -1;
  copy.enqueue([&] {
    std::this_thread::sleep_for(20ms);
    for (int& x : data) {
      x = 1;
    }
  });
  HostEvent copied;
  copied.record(copy);
  copied.enqueue_wait(compute, never);
  compute.enqueue([&] {
    sum = 0;
    for (int x : data) {
      sum += x;
    }
  });
  compute.synchronize();
  EXPECT_EQ(sum, 1000);
}

TEST(HostEvent, WaitGivesUpWhenCancelled) {
  Cancellation cancel;
  // Before the stream: the stream joins its task (still inside release.wait_for) when it is
  // destroyed, so release must outlive it (Clang's ASan saw the task read a destroyed release).
  Cancellation release;
  HostStream stream("s");
  stream.enqueue([&] { release.wait_for(10s); });
  HostEvent event;
  event.record(stream);
  auto waiter = std::async(std::launch::async, [&] { return event.wait(cancel); });
  std::this_thread::sleep_for(20ms);
  cancel.cancel();
  ASSERT_EQ(waiter.wait_for(2s), std::future_status::ready);
  EXPECT_FALSE(waiter.get());
  release.cancel();  // lets the stream's task end, so the stream can join
}

}  // namespace
}  // namespace h2d
