#pragma once

#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace h2d {

// What a pipeline stage is doing right now. The three "blocked" states wait on another stage
// (through a queue or a slot pool); the others are where a pipeline can really be stuck.
enum class StageState {
  working,         // producing, pinning, submitting: our own code is running
  waiting_device,  // waiting for the GPU (or its host stand-in) to finish a copy or a step
  waiting_input,   // blocked: its input queue is empty
  waiting_output,  // blocked: its output queue is full
  waiting_slot,    // blocked: no free buffer in its slot pool
  done,
};

std::string_view to_string(StageState state);
// Whether the stage waits on another stage of the pipeline (and so is a victim, not a cause).
bool is_blocked_on_pipeline(StageState state);

// The stages of one pipeline run and what each is doing since when: the watchdog reads it to name
// the stage that is stuck, instead of a run that just hangs.
class StageBoard {
 public:
  using Clock = std::chrono::steady_clock;

  struct Entry {
    std::string name;
    StageState state = StageState::working;
    std::string detail;  // "batch 12", "push to 'ready'"
    double seconds_in_state = 0;
  };

  // Before the stage's thread starts; returns its id.
  std::size_t add(std::string name);
  void set(std::size_t stage, StageState state, std::string detail = {});
  std::vector<Entry> snapshot() const;

 private:
  struct Stage {
    std::string name;
    StageState state = StageState::working;
    std::string detail;
    Clock::time_point since;
  };
  mutable std::mutex mutex_;
  std::vector<Stage> stages_;
};

// The stage most likely to be the cause of a stall: of the stages not blocked on another stage
// and not done, the one that has been in its state the longest. Null when there is none (every
// live stage waits on another: a cycle).
const StageBoard::Entry* stuck_stage(const std::vector<StageBoard::Entry>& stages);

}  // namespace h2d
