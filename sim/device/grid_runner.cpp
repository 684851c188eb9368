#include "sim/device/grid_runner.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <thread>
#include <vector>

#include "sim/device/builtin_variables.hpp"
#include "sim/device/device_clock.hpp"
#include "sim/device/fiber.hpp"
#include "sim/device/sanitizer_build.hpp"
#include "sim/device/warp_intrinsics.hpp"
#include "sim/runtime/activity_log.hpp"

namespace h2d::sim {
namespace {

constexpr unsigned kWarpLanes = 32;
#if defined(H2D_THREAD_SANITIZER) || defined(H2D_ADDRESS_SANITIZER)
constexpr std::size_t kLaneStackBytes = 256 << 10;  // sanitizers' frames are much larger
#else
constexpr std::size_t kLaneStackBytes = 64 << 10;  // a kernel's frames are small
#endif
// When every resident lane only polled the clock for a whole round, the grid waits (sleeping:
// a spinning GPU costs the host nothing, and the machine has few cores) before the next round.
constexpr std::chrono::microseconds kIdleRoundPause{20};

// Lanes that have arrived at a barrier wait for `expected` of them; lanes that exit stop being
// expected (as exited threads do not hold up __syncthreads).
struct Barrier {
  unsigned expected = 0;
  unsigned arrived = 0;
  std::uint64_t generation = 0;  // advances at each release

  void release() {
    arrived = 0;
    ++generation;
  }
};

struct Warp {
  Barrier barrier;
  // Shuffle values by the barrier's generation parity: a lane that runs ahead to the next
  // shuffle writes the other half, while slower lanes still read this one.
  std::uint64_t values[2][kWarpLanes] = {};
  unsigned lanes = 0;      // threads of the block in this warp (the last may be partial)
  unsigned live_mask = 0;  // lanes that still run
};

struct Block {
  uint3 index{};
  Barrier barrier;
  std::vector<Warp> warps;
  unsigned live = 0;
};

struct Lane {
  uint3 index{};
  Block* block = nullptr;
  Warp* warp = nullptr;
  unsigned lane_in_warp = 0;
  bool active = false;  // assigned a thread that has not finished
  const Barrier* waiting_on = nullptr;
  std::uint64_t waiting_generation = 0;

  bool runnable() const {
    return active && (waiting_on == nullptr || waiting_on->generation != waiting_generation);
  }
};

class GridRun;

// The fibers of one OS thread, kept across blocks and launches: each runs lanes for ever.
struct LanePool {
  ExecutionContext thread_context;
  std::vector<std::unique_ptr<Fiber>> fibers;
  GridRun* run = nullptr;  // the grid this thread runs now
};
thread_local LanePool lane_pool;

void lane_entry(void* argument);

class GridRun {
 public:
  GridRun(const char* kernel, dim3 grid, dim3 block, const std::function<void()>& body)
      : kernel_(kernel), grid_(grid), block_(block), body_(body) {
    threads_per_block_ = block.x * block.y * block.z;
    total_blocks_ = static_cast<std::uint64_t>(grid.x) * grid.y * grid.z;
    const unsigned resident = std::max(1u, kMaxResidentLanes / threads_per_block_);
    blocks_.resize(static_cast<std::size_t>(std::min<std::uint64_t>(resident, total_blocks_)));
    for (Block& slot : blocks_) {
      slot.warps.resize((threads_per_block_ + kWarpLanes - 1) / kWarpLanes);
    }
    lanes_.resize(blocks_.size() * threads_per_block_);
    LanePool& pool = lane_pool;
    while (pool.fibers.size() < lanes_.size()) {
      const std::size_t index = pool.fibers.size();
      pool.fibers.push_back(
          std::make_unique<Fiber>(kLaneStackBytes, &lane_entry,
                                  reinterpret_cast<void*>(static_cast<std::uintptr_t>(index))));
    }
  }

  void run() {
    LanePool& pool = lane_pool;
    pool.run = this;
    gridDim = grid_;
    blockDim = block_;
    for (std::size_t slot = 0; slot < blocks_.size(); ++slot) {
      start_block(slot);
    }
    capture_thread_context(pool.thread_context);
    current_ = 0;
    enter(0);
    switch_context(pool.thread_context, pool.fibers[0]->context());
    pool.run = nullptr;
  }

  // Lane `index`'s fiber: runs its thread, then hands the OS thread on for good.
  void run_lane(std::size_t index) {
    body_();
    finish(index);
  }

  Lane& current() { return lanes_[current_]; }

  // Blocks until every live lane of `barrier` has arrived; the last to arrive goes on at once.
  void arrive(Barrier& barrier) {
    progress_ = true;
    if (barrier.arrived + 1 >= barrier.expected) {
      barrier.release();
      return;
    }
    ++barrier.arrived;
    Lane& me = current();
    me.waiting_on = &barrier;
    me.waiting_generation = barrier.generation;
    switch_away(current_);
    me.waiting_on = nullptr;
  }

  // The lane polls (the clock, a sleep): the others run first.
  void poll() { switch_away(current_); }

  const char* kernel() const { return kernel_; }

 private:
  void start_block(std::size_t slot) {
    Block& block = blocks_[slot];
    const std::uint64_t linear = next_block_++;
    block.index = {static_cast<unsigned>(linear % grid_.x),
                   static_cast<unsigned>(linear / grid_.x % grid_.y),
                   static_cast<unsigned>(linear / (static_cast<std::uint64_t>(grid_.x) * grid_.y))};
    block.live = threads_per_block_;
    block.barrier = Barrier{threads_per_block_, 0, 0};
    for (std::size_t w = 0; w < block.warps.size(); ++w) {
      const unsigned lanes =
          std::min(kWarpLanes, threads_per_block_ - static_cast<unsigned>(w) * kWarpLanes);
      block.warps[w].barrier = Barrier{lanes, 0, 0};
      block.warps[w].lanes = lanes;
      block.warps[w].live_mask = lanes == kWarpLanes ? ~0u : (1u << lanes) - 1;
    }
    for (unsigned t = 0; t < threads_per_block_; ++t) {
      Lane& lane = lanes_[slot * threads_per_block_ + t];
      lane.index = {t % block_.x, t / block_.x % block_.y, t / (block_.x * block_.y)};
      lane.block = &block;
      lane.warp = &block.warps[t / kWarpLanes];
      lane.lane_in_warp = t % kWarpLanes;
      lane.active = true;
      lane.waiting_on = nullptr;
    }
    progress_ = true;
  }

  void finish(std::size_t index) {
    Lane& lane = lanes_[index];
    lane.active = false;
    progress_ = true;
    Block& block = *lane.block;
    leave(lane.warp->barrier);
    lane.warp->live_mask &= ~(1u << lane.lane_in_warp);
    leave(block.barrier);
    if (--block.live == 0 && next_block_ < total_blocks_) {
      start_block(static_cast<std::size_t>(lane.block - blocks_.data()));
    }
    switch_away(index);  // never resumed in this grid; the fiber's loop picks up the next one
  }

  // An exiting lane is no longer expected: the lanes waiting for it may go on.
  static void leave(Barrier& barrier) {
    --barrier.expected;
    if (barrier.arrived > 0 && barrier.arrived >= barrier.expected) {
      barrier.release();
    }
  }

  // Resumes the next runnable lane after `from` (round robin), `from` itself when it is the only
  // one, or the thread's own stack once every lane has finished.
  void switch_away(std::size_t from) {
    const std::size_t count = lanes_.size();
    std::size_t next = from;
    for (;;) {
      next = next + 1 == count ? 0 : next + 1;
      if (next == 0) {
        wrapped();
      }
      if (lanes_[next].runnable()) {
        break;
      }
      if (next == from) {
        if (std::none_of(lanes_.begin(), lanes_.end(), [](const Lane& l) { return l.active; })) {
          current_ = count;
          switch_context(lane_pool.fibers[from]->context(), lane_pool.thread_context);
          return;  // a fiber resumed only by a later grid
        }
        deadlock();
      }
    }
    current_ = next;
    enter(next);  // also for `from` itself: it may have been given a thread of the next block
    if (next == from) {
      return;
    }
    switch_context(lane_pool.fibers[from]->context(), lane_pool.fibers[next]->context());
  }

  // One scan of the lanes is over: pause when nothing but clock polling happened in it.
  void wrapped() {
    if (!progress_) {
      std::this_thread::sleep_for(kIdleRoundPause);
    }
    progress_ = false;
  }

  void enter(std::size_t index) const {
    threadIdx = lanes_[index].index;
    blockIdx = lanes_[index].block->index;
  }

  [[noreturn]] void deadlock() const {
    std::fprintf(stderr,
                 "h2d sim: kernel %s deadlocked: lanes wait at a __syncthreads, __syncwarp or "
                 "shuffle that other live lanes of their block or warp never reach\n",
                 kernel_);
    std::abort();
  }

  const char* kernel_;
  dim3 grid_, block_;
  const std::function<void()>& body_;
  unsigned threads_per_block_ = 0;
  std::uint64_t total_blocks_ = 0;
  std::uint64_t next_block_ = 0;
  std::vector<Block> blocks_;  // resident blocks; never resized while lanes run
  std::vector<Lane> lanes_;    // blocks_.size() * threads_per_block_
  std::size_t current_ = 0;
  bool progress_ = true;
};

void lane_entry(void* argument) {
  const auto index = static_cast<std::size_t>(reinterpret_cast<std::uintptr_t>(argument));
  for (;;) {
    lane_pool.run->run_lane(index);
  }
}

GridRun& running_grid() {
  GridRun* const run = lane_pool.run;
  if (run == nullptr) {
    std::fprintf(stderr, "h2d sim: a device function was called outside a kernel\n");
    std::abort();
  }
  return *run;
}

}  // namespace

void run_grid(const char* kernel, dim3 grid, dim3 block, const std::function<void()>& lane) {
  const std::uint64_t threads = static_cast<std::uint64_t>(block.x) * block.y * block.z;
  if (threads == 0 || threads > kMaxThreadsPerBlock || grid.x == 0 || grid.y == 0 || grid.z == 0) {
    std::fprintf(stderr, "h2d sim: kernel %s launched with an invalid configuration\n", kernel);
    std::abort();
  }
  GridRun run(kernel, grid, block, lane);
  run.run();
}

std::uint64_t warp_shuffle_down(unsigned mask, std::uint64_t value, unsigned delta, int width) {
  GridRun& run = running_grid();
  Lane& me = run.current();
  Warp& warp = *me.warp;
  if ((mask & warp.live_mask) != warp.live_mask) {
    std::fprintf(stderr,
                 "h2d sim: kernel %s: a shuffle's mask leaves out live lanes of the warp "
                 "(only whole-warp shuffles are modelled)\n",
                 run.kernel());
    std::abort();
  }
  const unsigned parity = warp.barrier.generation & 1u;
  warp.values[parity][me.lane_in_warp] = value;
  run.arrive(warp.barrier);
  const unsigned segment = width > 0 && width <= static_cast<int>(kWarpLanes)
                               ? static_cast<unsigned>(width)
                               : kWarpLanes;
  const unsigned source = me.lane_in_warp + delta;
  // A lane that has exited since keeps its deposited value readable; a missing lane of a partial
  // warp has none.
  if (me.lane_in_warp % segment + delta >= segment || source >= warp.lanes) {
    return value;
  }
  return warp.values[parity][source];
}

void warp_barrier(unsigned /*mask*/) {
  GridRun& run = running_grid();
  run.arrive(run.current().warp->barrier);
}

void block_barrier() {
  GridRun& run = running_grid();
  run.arrive(run.current().block->barrier);
}

}  // namespace h2d::sim

std::uint64_t h2d_global_timer_ns() {
  h2d::sim::running_grid().poll();
  return h2d::sim::clock_ns();
}

void __nanosleep(unsigned int /*ns*/) {
  h2d::sim::running_grid().poll();
}
