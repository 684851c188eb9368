#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "harness/core/cancellation.hpp"

namespace h2d {

// A host thread that runs tasks in the order they were queued: the host stand-in for a CUDA
// stream, so the pipeline's stream-and-event ordering runs (and is race-checked) without a GPU.
class HostStream {
 public:
  explicit HostStream(std::string name);
  HostStream(const HostStream&) = delete;
  HostStream& operator=(const HostStream&) = delete;
  // Runs what is still queued, then joins. Tasks that wait must be cancellable, and cancelled by
  // the owner before this runs.
  ~HostStream();

  // Tasks must not throw (an exception would end the process): they are copies and checksums.
  void enqueue(std::function<void()> task);
  // How many tasks have been queued so far: a point in this stream that a HostEvent can mark.
  std::uint64_t enqueued() const;
  // Blocks until the first `count` tasks have finished; false when `cancel` fired first.
  bool wait_reached(std::uint64_t count, const Cancellation& cancel) const;
  // Blocks until everything queued so far has finished.
  void synchronize() const;

 private:
  void run();

  mutable std::mutex mutex_;
  std::condition_variable has_task_;
  mutable std::condition_variable finished_changed_;
  std::deque<std::function<void()>> tasks_;
  std::uint64_t enqueued_ = 0;
  std::uint64_t finished_ = 0;
  bool closing_ = false;
  std::thread thread_;
};

// The host stand-in for a CUDA event: a point in a HostStream (everything queued on it when
// recorded). Waiting on an event never recorded returns at once, as cudaEventSynchronize does.
class HostEvent {
 public:
  void record(const HostStream& stream);
  // Blocks until the stream has passed the recorded point; false when `cancel` fired first.
  bool wait(const Cancellation& cancel) const;
  // Queues on `waiter` a wait for the point recorded now (cudaStreamWaitEvent): later tasks on
  // `waiter` run after it. When `cancel` fires the wait gives up, and so do the tasks behind it
  // that check `cancel`.
  void enqueue_wait(HostStream& waiter, const Cancellation& cancel) const;

 private:
  struct Point {
    const HostStream* stream = nullptr;
    std::uint64_t count = 0;
  };
  Point point() const;

  mutable std::mutex mutex_;
  Point point_;
};

}  // namespace h2d
