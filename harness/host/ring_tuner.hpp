#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "harness/host/ring_shape.hpp"

namespace h2d {

// The shapes a tuned staging ring may take for one transfer size on this machine.
struct RingSearchSpace {
  std::size_t bytes = 0;             // the transfer: no shape is deeper than the chunks it makes
  std::vector<std::size_t> threads;  // ascending: powers of two below the cores, then the cores
  std::vector<std::size_t> chunks;   // ascending: 1..16 MiB, only those the transfer splits in 2+
  std::vector<std::size_t> depths;   // ascending: 2..8
};

// For a transfer of `bytes` (> 0) with `cores` usable cores: threads 1, 2, 4, ... and `cores`;
// chunks 1, 2, 4, 8, 16 MiB that make at least two chunks (a transfer under 2 MiB gets its half,
// rounded down to 4 KiB); depths 2, 3, 4, 6, 8, none deeper than the smallest chunk makes chunks.
// Throws std::invalid_argument for zero bytes.
RingSearchSpace ring_search_space(std::size_t bytes, std::size_t cores);

// Where the search starts: the most threads up to 4, the largest chunk up to 4 MiB, depth 2.
RingShape ring_search_start(const RingSearchSpace& space);

// The pinned bytes and slots a ring needs to take every shape of the space.
std::size_t ring_space_pinned_bytes(const RingSearchSpace& space);

// One shape tried: the rate it reached and the time the try took.
struct RingTrial {
  RingShape shape;
  double gb_per_s = 0;
  double seconds = 0;
};

struct RingTuning {
  RingShape best;
  double best_gb_per_s = 0;
  std::vector<RingTrial> trials;  // in the order tried, each shape once
  double seconds = 0;             // sum of the trials' time
  bool budget_ran_out = false;    // the search stopped with shapes it would still have tried
};

// Chooses a shape by measuring: coordinate search from ring_search_start, one axis at a time
// (threads, then chunk, then depth), moving only to a shape at least `min_gain` (a fraction) faster
// than the best so far, and going round again while a round moved; each shape is measured once.
// Stops before a trial that would pass `budget_seconds` (judged by the slowest trial so far); the
// start is always measured. `measure` returns a trial for the shape it is given. Pure: the caller
// decides what a trial copies and how it is timed.
RingTuning tune_ring(const RingSearchSpace& space, double budget_seconds,
                     const std::function<RingTrial(const RingShape&)>& measure,
                     double min_gain = 0.02);

// How long a tuned ring may search, and what one trial copies.
struct RingCalibration {
  double budget_seconds = 1.0;
  // A trial copies at most this much of the transfer: enough chunks of the largest size that the
  // ring's fill-up and drain do not decide the choice, little enough for many trials a second.
  std::size_t most_bytes = std::size_t{256} << 20;
  int passes_per_trial = 3;
};

// The space a ring for a transfer of `bytes` searches: that of its calibration bytes.
RingSearchSpace calibration_space(std::size_t bytes, std::size_t cores,
                                  const RingCalibration& calibration);

// tune_ring over `space` within the calibration's budget, where a trial takes the shape
// (`reshape`) and times passes_per_trial passes of space.bytes (`one_pass`); leaves the ring
// reshaped to the best shape.
RingTuning calibrate_ring(const RingSearchSpace& space, const RingCalibration& calibration,
                          const std::function<void(const RingShape&)>& reshape,
                          const std::function<void()>& one_pass);

// A trial of `shape` that runs `one_pass` (a timed copy of `bytes`) `passes` times (at least 1):
// the median pass's rate, and the time all passes took.
RingTrial time_passes(const RingShape& shape, std::size_t bytes, int passes,
                      const std::function<void()>& one_pass);

}  // namespace h2d
