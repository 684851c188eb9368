#include "harness/pipeline/stage_board.hpp"

#include <utility>

namespace h2d {

std::string_view to_string(StageState state) {
  switch (state) {
    case StageState::working:
      return "working";
    case StageState::waiting_device:
      return "waiting for the device";
    case StageState::waiting_input:
      return "waiting for input";
    case StageState::waiting_output:
      return "waiting for room downstream";
    case StageState::waiting_slot:
      return "waiting for a free slot";
    case StageState::done:
      return "done";
  }
  return "unknown";
}

bool is_blocked_on_pipeline(StageState state) {
  return state == StageState::waiting_input || state == StageState::waiting_output ||
         state == StageState::waiting_slot;
}

std::size_t StageBoard::add(std::string name) {
  std::lock_guard<std::mutex> lock(mutex_);
  stages_.push_back({std::move(name), StageState::working, "starting", Clock::now()});
  return stages_.size() - 1;
}

void StageBoard::set(std::size_t stage, StageState state, std::string detail) {
  const Clock::time_point now = Clock::now();
  std::lock_guard<std::mutex> lock(mutex_);
  Stage& entry = stages_.at(stage);
  entry.state = state;
  entry.detail = std::move(detail);
  entry.since = now;
}

std::vector<StageBoard::Entry> StageBoard::snapshot() const {
  const Clock::time_point now = Clock::now();
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<Entry> entries;
  entries.reserve(stages_.size());
  for (const Stage& stage : stages_) {
    entries.push_back({stage.name, stage.state, stage.detail,
                       std::chrono::duration<double>(now - stage.since).count()});
  }
  return entries;
}

const StageBoard::Entry* stuck_stage(const std::vector<StageBoard::Entry>& stages) {
  const StageBoard::Entry* stuck = nullptr;
  for (const StageBoard::Entry& entry : stages) {
    if (entry.state == StageState::done || is_blocked_on_pipeline(entry.state)) {
      continue;
    }
    if (stuck == nullptr || entry.seconds_in_state > stuck->seconds_in_state) {
      stuck = &entry;
    }
  }
  return stuck;
}

}  // namespace h2d
