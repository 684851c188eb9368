#include "harness/pipeline/stall_report.hpp"

#include <gtest/gtest.h>

namespace h2d {
namespace {

TEST(StallReport, NamesTheStuckStageTheQueuesAndThePools) {
  StallSnapshot stall;
  stall.idle_s = 2.04;
  stall.watchdog_s = 2;
  stall.completed = 3;
  stall.batches = 10;
  stall.stages = {{"worker 0", StageState::waiting_output, "push to 'collated'", 1.5},
                  {"pin", StageState::working, "pinning batch 3", 2.0}};
  stall.collated = Occupancy{2, 2};
  stall.ready = Occupancy{0, 2};
  stall.pageable_free = Occupancy{0, 5};
  stall.pinned_free = Occupancy{1, 4};
  EXPECT_EQ(describe_stall(stall),
            "no batch completed for 2.0 s (watchdog 2 s), 3 of 10 batches done; stuck stage: "
            "'pin' (working: pinning batch 3) for 2.0 s; stages: worker 0 waiting for room "
            "downstream (push to 'collated') 1.5 s; pin working (pinning batch 3) 2.0 s; queues: "
            "collated 2/2, ready 0/2; free slots: pageable 0/5 pinned 1/4");
}

TEST(StallReport, StagesThatAllWaitOnEachOtherAreADeadlock) {
  StallSnapshot stall;
  stall.stages = {{"step", StageState::waiting_input, "pop from 'ready'", 1.0}};
  const std::string text = describe_stall(stall);
  EXPECT_NE(text.find("no stage is working: each waits on another (a deadlock)"), std::string::npos)
      << text;
  EXPECT_EQ(text.find("collated"), std::string::npos) << text;  // no pin stage, no such queue
  EXPECT_EQ(text.find("pageable"), std::string::npos) << text;
}

}  // namespace
}  // namespace h2d
