#include "harness/host/ring_tuner.hpp"

#include <algorithm>
#include <stdexcept>

#include "harness/core/byte_size.hpp"
#include "harness/core/statistics.hpp"
#include "harness/core/stopwatch.hpp"

namespace h2d {
namespace {

constexpr std::size_t KiB = std::size_t{1} << 10;
constexpr std::size_t MiB = std::size_t{1} << 20;

// The largest value of `values` (ascending) that is at most `limit`, else the smallest.
std::size_t at_most(const std::vector<std::size_t>& values, std::size_t limit) {
  std::size_t chosen = values.front();
  for (std::size_t value : values) {
    if (value <= limit) {
      chosen = value;
    }
  }
  return chosen;
}

std::size_t chunks_of(std::size_t bytes, std::size_t chunk) {
  return (bytes + chunk - 1) / chunk;
}

enum class Axis { threads, chunk, depth };

std::size_t& coordinate(RingShape& shape, Axis axis) {
  switch (axis) {
    case Axis::threads:
      return shape.threads;
    case Axis::chunk:
      return shape.chunk_bytes;
    case Axis::depth:
      return shape.depth;
  }
  return shape.depth;
}

const std::vector<std::size_t>& values_of(const RingSearchSpace& space, Axis axis) {
  switch (axis) {
    case Axis::threads:
      return space.threads;
    case Axis::chunk:
      return space.chunks;
    case Axis::depth:
      return space.depths;
  }
  return space.depths;
}

}  // namespace

RingSearchSpace ring_search_space(std::size_t bytes, std::size_t cores) {
  if (bytes == 0) {
    throw std::invalid_argument("a ring search space needs a transfer of at least one byte");
  }
  cores = std::max<std::size_t>(cores, 1);
  RingSearchSpace space;
  space.bytes = bytes;
  for (std::size_t threads = 1; threads < cores; threads *= 2) {
    space.threads.push_back(threads);
  }
  space.threads.push_back(cores);
  for (std::size_t chunk = 1 * MiB; chunk <= 16 * MiB; chunk *= 2) {
    if (bytes / chunk >= 2) {
      space.chunks.push_back(chunk);
    }
  }
  if (space.chunks.empty()) {
    // Too small for 1 MiB chunks: halves, so that a fill still overlaps a copy.
    space.chunks.push_back(std::max<std::size_t>(bytes / 2 / (4 * KiB) * (4 * KiB), 4 * KiB));
  }
  const std::size_t most_chunks = chunks_of(bytes, space.chunks.front());
  for (std::size_t depth : {2, 3, 4, 6, 8}) {
    if (depth <= std::max<std::size_t>(most_chunks, 2)) {
      space.depths.push_back(depth);
    }
  }
  return space;
}

RingShape ring_search_start(const RingSearchSpace& space) {
  RingShape start;
  start.threads = at_most(space.threads, 4);
  start.chunk_bytes = at_most(space.chunks, 4 * MiB);
  start.depth = space.depths.front();
  return start;
}

std::size_t ring_space_pinned_bytes(const RingSearchSpace& space) {
  return space.chunks.back() * space.depths.back();
}

RingTuning tune_ring(const RingSearchSpace& space, double budget_seconds,
                     const std::function<RingTrial(const RingShape&)>& measure, double min_gain) {
  if (space.threads.empty() || space.chunks.empty() || space.depths.empty()) {
    throw std::invalid_argument("tune_ring needs at least one thread count, chunk and depth");
  }
  RingTuning tuning;
  double slowest_trial = 0;
  const auto find = [&](const RingShape& shape) {
    return std::find_if(tuning.trials.begin(), tuning.trials.end(),
                        [&](const RingTrial& trial) { return trial.shape == shape; });
  };
  const auto try_shape = [&](const RingShape& shape) {
    const RingTrial trial = measure(shape);
    tuning.trials.push_back({shape, trial.gb_per_s, trial.seconds});
    tuning.seconds += trial.seconds;
    slowest_trial = std::max(slowest_trial, trial.seconds);
  };

  try_shape(ring_search_start(space));
  tuning.best = tuning.trials.front().shape;
  tuning.best_gb_per_s = tuning.trials.front().gb_per_s;
  // Each round walks the three axes; a round that moves nowhere has found a local best.
  for (bool moved = true; moved && !tuning.budget_ran_out;) {
    moved = false;
    for (Axis axis : {Axis::threads, Axis::chunk, Axis::depth}) {
      RingShape axis_best = tuning.best;
      double axis_best_rate = tuning.best_gb_per_s;
      for (std::size_t value : values_of(space, axis)) {
        RingShape shape = tuning.best;
        coordinate(shape, axis) = value;
        if (shape.depth > std::max<std::size_t>(chunks_of(space.bytes, shape.chunk_bytes), 2)) {
          continue;  // slots the transfer never fills
        }
        auto known = find(shape);
        if (known == tuning.trials.end()) {
          if (tuning.seconds + slowest_trial > budget_seconds) {
            tuning.budget_ran_out = true;
            break;
          }
          try_shape(shape);
          known = std::prev(tuning.trials.end());
        }
        if (known->gb_per_s > axis_best_rate) {
          axis_best = shape;
          axis_best_rate = known->gb_per_s;
        }
      }
      if (axis_best_rate > tuning.best_gb_per_s * (1 + min_gain)) {
        tuning.best = axis_best;
        tuning.best_gb_per_s = axis_best_rate;
        moved = true;
      }
      if (tuning.budget_ran_out) {
        break;
      }
    }
  }
  return tuning;
}

RingSearchSpace calibration_space(std::size_t bytes, std::size_t cores,
                                  const RingCalibration& calibration) {
  return ring_search_space(std::min(bytes, calibration.most_bytes), cores);
}

RingTuning calibrate_ring(const RingSearchSpace& space, const RingCalibration& calibration,
                          const std::function<void(const RingShape&)>& reshape,
                          const std::function<void()>& one_pass) {
  const RingTuning tuning =
      tune_ring(space, calibration.budget_seconds, [&](const RingShape& shape) {
        reshape(shape);
        return time_passes(shape, space.bytes, calibration.passes_per_trial, one_pass);
      });
  reshape(tuning.best);
  return tuning;
}

RingTrial time_passes(const RingShape& shape, std::size_t bytes, int passes,
                      const std::function<void()>& one_pass) {
  std::vector<double> seconds;
  Stopwatch all;
  for (int i = 0; i < std::max(passes, 1); ++i) {
    Stopwatch pass;
    one_pass();
    seconds.push_back(pass.seconds());
  }
  const double median = summarize(seconds).median;
  return {shape, gb_per_s(static_cast<double>(bytes), median), all.seconds()};
}

}  // namespace h2d
