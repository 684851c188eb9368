#include "harness/pipeline/stall_report.hpp"

#include <fmt/format.h>

namespace h2d {

std::string describe_stall(const StallSnapshot& stall) {
  std::string text = fmt::format(
      "no batch completed for {:.1f} s (watchdog {:g} s), {} of {} "
      "batches done; ",
      stall.idle_s, stall.watchdog_s, stall.completed, stall.batches);
  if (const StageBoard::Entry* stuck = stuck_stage(stall.stages)) {
    text += fmt::format("stuck stage: '{}' ({}: {}) for {:.1f} s", stuck->name,
                        to_string(stuck->state), stuck->detail, stuck->seconds_in_state);
  } else {
    text += "no stage is working: each waits on another (a deadlock)";
  }
  text += "; stages:";
  for (const StageBoard::Entry& entry : stall.stages) {
    text += fmt::format(" {} {} ({}) {:.1f} s;", entry.name, to_string(entry.state), entry.detail,
                        entry.seconds_in_state);
  }
  text += " queues:";
  if (stall.collated) {
    text += fmt::format(" collated {}/{},", stall.collated->count, stall.collated->capacity);
  }
  text += fmt::format(" ready {}/{}; free slots:", stall.ready.count, stall.ready.capacity);
  if (stall.pageable_free) {
    text +=
        fmt::format(" pageable {}/{}", stall.pageable_free->count, stall.pageable_free->capacity);
  }
  if (stall.pinned_free) {
    text += fmt::format(" pinned {}/{}", stall.pinned_free->count, stall.pinned_free->capacity);
  }
  return text;
}

}  // namespace h2d
