#pragma once

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "harness/cuda/copy_timing.hpp"
#include "harness/cuda/event.hpp"
#include "harness/cuda/latch.hpp"
#include "harness/cuda/stream.hpp"
#include "harness/host/thread_team.hpp"

namespace h2d {

// Copies of `bytes` per lane in one window: ~256 MiB per GPU, so the few microseconds of releasing
// the latches and waking the threads are lost in it, and at most 16, so the streams' queues stay
// short behind their latches.
int copies_per_concurrent_window(std::size_t bytes);

// One GPU's part of a concurrent measurement: the copies it runs each window.
struct ConcurrentLane {
  int device = 0;
  CopyJob job;  // from page-locked memory only: the copies wait behind a latch
};

// One window of every lane's copies running at the same time.
struct ConcurrentTiming {
  // Host clock, from the moment the last lane is ready and every latch is released until the last
  // lane's stream has finished: the true simultaneous window for the aggregate. With latches off
  // for the run, from before the first lane enqueues.
  double window_seconds = 0;
  // Each lane's own span on its own GPU (its start and stop events; events of different devices
  // are never subtracted).
  std::vector<double> lane_seconds;
};

// Copies to several GPUs at once, the nvbandwidth way but truly simultaneous: one host thread per
// GPU (started once) blocks its stream with a latch, records its start event, enqueues its copies
// and its stop event; the last thread to be ready notes the host time and releases every latch,
// so all copies start together; each thread waits for its own stream and notes when it finished.
class ConcurrentCopies {
 public:
  // Throws std::logic_error when a lane's host memory is not page-locked (a pageable copy behind a
  // latch would deadlock until the latch timed out).
  ConcurrentCopies(std::vector<ConcurrentLane> lanes, Latching latching);
  ConcurrentCopies(const ConcurrentCopies&) = delete;
  ConcurrentCopies& operator=(const ConcurrentCopies&) = delete;
  ~ConcurrentCopies();

  // One window. Throws if a latch timed out (the window would have measured the enqueue).
  ConcurrentTiming measure();
  std::size_t lanes() const { return lanes_.size(); }
  // Windows measured so far, warm-up included.
  std::size_t windows() const { return windows_; }

 private:
  using Clock = std::chrono::steady_clock;
  struct Lane {
    Lane(const ConcurrentLane& lane, Latching latching);
    ConcurrentLane spec;
    Stream stream;
    Event start;
    Event stop;
    StreamLatch latch;
    std::optional<LatchHold> hold;
    Clock::time_point finished;
  };

  void run_lane(std::size_t index);
  void arrive() noexcept;

  std::vector<std::unique_ptr<Lane>> lanes_;
  std::mutex mutex_;
  std::size_t arrived_ = 0;
  Clock::time_point released_;
  const bool latched_;  // the run's latching: each lane's copies wait behind its latch
  std::size_t windows_ = 0;
  ThreadTeam team_;  // last: its threads stop before the lanes they use are destroyed
};

}  // namespace h2d
