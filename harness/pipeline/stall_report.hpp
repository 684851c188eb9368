#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "harness/pipeline/stage_board.hpp"

namespace h2d {

// How many items a queue holds, or how many of a pool's slots are free, out of how many.
struct Occupancy {
  std::size_t count = 0;
  std::size_t capacity = 0;
};

// What a pipeline looked like when its watchdog fired: no batch completed for `idle_s`.
struct StallSnapshot {
  double idle_s = 0;
  double watchdog_s = 0;
  std::size_t completed = 0;
  std::size_t batches = 0;
  std::vector<StageBoard::Entry> stages;
  std::optional<Occupancy> collated;       // the pin stage's input queue, when there is one
  Occupancy ready;                         // the step's input queue
  std::optional<Occupancy> pageable_free;  // free slots, when the pool exists
  std::optional<Occupancy> pinned_free;
};

// The watchdog's report in one line: what every stage does, the queues and pools, and the stage
// most likely stuck (or that every stage waits on another: a deadlock). A pure function of the
// snapshot, so its wording is tested without a stuck pipeline.
std::string describe_stall(const StallSnapshot& stall);

}  // namespace h2d
