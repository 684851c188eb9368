#include "harness/strategy/concurrent_copies.hpp"

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "harness/cuda/cuda_error.hpp"
#include "harness/cuda/host_memory.hpp"
#include "harness/cuda/scoped_device.hpp"
#include "harness/trace/nvtx.hpp"

namespace h2d {

int copies_per_concurrent_window(std::size_t bytes) {
  constexpr std::size_t kTargetBytes = std::size_t{256} << 20;
  return static_cast<int>(
      std::clamp<std::size_t>(kTargetBytes / std::max<std::size_t>(bytes, 1), 1, 16));
}

ConcurrentCopies::Lane::Lane(const ConcurrentLane& lane, Latching latching)
    : spec(lane),
      stream(lane.device),
      start(lane.device),
      stop(lane.device),
      latch(lane.device, latching) {}

ConcurrentCopies::ConcurrentCopies(std::vector<ConcurrentLane> lanes, Latching latching)
    : latched_(latching == Latching::on),
      team_(std::max<std::size_t>(lanes.size(), 1), "gpu lane") {
  if (lanes.empty()) {
    throw std::invalid_argument("concurrent copies need at least one lane");
  }
  for (const ConcurrentLane& lane : lanes) {
    const void* host =
        lane.job.direction == Direction::h2d ? lane.job.source : lane.job.destination;
    ScopedDevice on(lane.device);
    if (actual_kind(host) != ActualKind::pinned) {
      throw std::logic_error(fmt::format(
          "GPU {}'s lane copies from memory CUDA does not see as pinned; it cannot wait behind a "
          "latch",
          lane.device));
    }
    lanes_.push_back(std::make_unique<Lane>(lane, latching));
  }
}

ConcurrentCopies::~ConcurrentCopies() = default;

void ConcurrentCopies::arrive() noexcept {
  std::lock_guard<std::mutex> lock(mutex_);
  if (++arrived_ == lanes_.size()) {
    if (latched_) {
      released_ = Clock::now();
    }
    for (auto& lane : lanes_) {
      if (lane->hold) {
        lane->hold->release();
      }
    }
  }
}

void ConcurrentCopies::run_lane(std::size_t index) {
  Lane& lane = *lanes_[index];
  const CopyJob& job = lane.spec.job;
  try {
    ScopedDevice on(lane.spec.device);
    LatchHold hold = lane.latch.block(lane.stream);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      lane.hold.emplace(std::move(hold));
    }
    lane.start.record(lane.stream.get());
    for (int i = 0; i < job.copies; ++i) {
      H2D_CUDA_CHECK(cudaMemcpyAsync(job.destination, job.source, job.bytes,
                                     memcpy_kind(job.direction), lane.stream.get()));
    }
    lane.stop.record(lane.stream.get());
  } catch (...) {
    arrive();  // every lane arrives once, so the last one always releases every latch
    throw;
  }
  arrive();
  lane.stream.synchronize();
  lane.finished = Clock::now();
}

ConcurrentTiming ConcurrentCopies::measure() {
  std::uint64_t bytes = 0;
  for (const auto& lane : lanes_) {
    bytes += static_cast<std::uint64_t>(lane->spec.job.bytes) * lane->spec.job.copies;
  }
  NvtxRange range(NvtxCategory::copy, fmt::format("{} GPUs at once", lanes_.size()), bytes);
  arrived_ = 0;
  // Without latches (the run's latching off) each lane's copies start as it enqueues them, so the
  // window starts before the first lane does.
  if (!latched_) {
    released_ = Clock::now();
  }
  ++windows_;
  try {
    team_.run([this](std::size_t index) { run_lane(index); });
  } catch (...) {
    // Every latch was released by the last lane to arrive; let queued copies finish before the
    // caller frees the memory they use. The first error is the one worth reporting.
    for (auto& lane : lanes_) {
      cudaStreamSynchronize(lane->stream.get());
      lane->hold.reset();
    }
    throw;
  }
  ConcurrentTiming timing;
  Clock::time_point last = released_;
  for (auto& lane : lanes_) {
    lane->hold.reset();
    if (lane->latch.timed_out()) {
      throw std::runtime_error(fmt::format(
          "GPU {}'s stream latch timed out before every lane was ready; the window is invalid",
          lane->spec.device));
    }
    last = std::max(last, lane->finished);
    ScopedDevice on(lane->spec.device);
    timing.lane_seconds.push_back(elapsed_ms(lane->start, lane->stop) / 1e3);
  }
  timing.window_seconds = std::chrono::duration<double>(last - released_).count();
  return timing;
}

}  // namespace h2d
