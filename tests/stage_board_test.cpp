#include "harness/pipeline/stage_board.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

namespace h2d {
namespace {

using Entry = StageBoard::Entry;

TEST(StageBoard, RecordsStateDetailAndAge) {
  StageBoard board;
  const std::size_t worker = board.add("worker 0");
  const std::size_t step = board.add("step");
  board.set(worker, StageState::working, "batch 3");
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  board.set(step, StageState::waiting_input, "pop from 'ready'");
  const auto entries = board.snapshot();
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].name, "worker 0");
  EXPECT_EQ(entries[0].detail, "batch 3");
  EXPECT_GE(entries[0].seconds_in_state, 0.015);
  EXPECT_EQ(entries[1].state, StageState::waiting_input);
  EXPECT_LT(entries[1].seconds_in_state, entries[0].seconds_in_state);
}

// The culprit is the stage doing its own work (or waiting on the device) the longest; stages
// blocked on a queue or a pool are its victims.
TEST(StageBoard, StuckStageIsTheLongestNonBlockedOne) {
  const std::vector<Entry> stages{
      {"worker 0", StageState::waiting_output, "push", 9.0},
      {"pin", StageState::working, "pinning batch 4", 3.0},
      {"worker 1", StageState::working, "batch 5", 1.0},
      {"step", StageState::waiting_input, "pop", 9.0},
      {"old", StageState::done, "", 20.0},
  };
  const Entry* stuck = stuck_stage(stages);
  ASSERT_NE(stuck, nullptr);
  EXPECT_EQ(stuck->name, "pin");

  const std::vector<Entry> device{{"step", StageState::waiting_device, "lane 0", 2.0},
                                  {"worker 0", StageState::waiting_slot, "slot", 2.5}};
  ASSERT_NE(stuck_stage(device), nullptr);
  EXPECT_EQ(stuck_stage(device)->name, "step");

  const std::vector<Entry> cycle{{"a", StageState::waiting_input, "", 1.0},
                                 {"b", StageState::waiting_output, "", 1.0}};
  EXPECT_EQ(stuck_stage(cycle), nullptr);
}

}  // namespace
}  // namespace h2d
