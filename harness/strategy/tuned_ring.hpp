#pragma once

#include <benchmark/benchmark.h>

#include <cstddef>

#include "harness/host/ring_tuner.hpp"
#include "harness/strategy/bounce_ring.hpp"

namespace h2d {

// A bounce ring whose shape (threads, chunk, depth) is chosen on this machine, for this transfer
// size, by measuring (tune_ring over ring_search_space) before it is used; its pinned slots are
// allocated once, for the largest shape of the search, and reused by every trial and copy.
class TunedRing {
 public:
  TunedRing(int device, std::size_t bytes, std::size_t cores,
            const RingCalibration& calibration = {});

  // Searches by copying the first calibration bytes of `source` to `destination` (device memory
  // of `bytes` or more) with each shape tried; leaves the ring in the best shape and returns the
  // search. Outside any timing: it is the cost `calibration_ms` reports.
  const RingTuning& calibrate(void* destination, const std::byte* source);

  BounceRing& ring() { return ring_; }
  const RingTuning& tuning() const { return tuning_; }

 private:
  RingCalibration calibration_;
  RingSearchSpace space_;
  BounceRing ring_;
  RingTuning tuning_;
};

// The counters of a tuned ring: what it chose (threads, chunk_bytes, depth) and what choosing cost
// (calibration_ms, calibration_trials).
void write_tuning_counters(const RingTuning& tuning, benchmark::State& state);

}  // namespace h2d
