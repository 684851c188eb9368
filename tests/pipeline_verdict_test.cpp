#include "harness/pipeline/pipeline_verdict.hpp"

#include <gtest/gtest.h>

#include <string>

namespace h2d {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(PipelineVerdict, TheBusiestStageDecides) {
  EXPECT_EQ(judge_pipeline({0.97, 0, 0.3, 0.5, false}).bound_by, BoundBy::cpu_workers);
  EXPECT_EQ(judge_pipeline({0.4, 0, 0.95, 0.5, false}).bound_by, BoundBy::bus);
  const PipelineVerdict gpu = judge_pipeline({0.4, 0, 0.3, 0.98, false});
  EXPECT_EQ(gpu.bound_by, BoundBy::gpu_step);
  EXPECT_TRUE(contains(gpu.reason, "bound by the GPU step: busy 98%")) << gpu.reason;
  EXPECT_TRUE(contains(gpu.reason, "workers 40%")) << gpu.reason;
  EXPECT_FALSE(contains(gpu.reason, "saturated")) << gpu.reason;
  EXPECT_EQ(static_cast<int>(BoundBy::cpu_workers), 0);
  EXPECT_EQ(static_cast<int>(BoundBy::bus), 1);
  EXPECT_EQ(static_cast<int>(BoundBy::gpu_step), 2);
}

TEST(PipelineVerdict, NamesThePinThreadWhenItIsTheCpuLimit) {
  const PipelineVerdict verdict = judge_pipeline({0.5, 0.96, 0.4, 0.4, false});
  EXPECT_EQ(verdict.bound_by, BoundBy::cpu_workers);
  EXPECT_TRUE(contains(verdict.reason, "the pin thread")) << verdict.reason;
}

// With synchronous copies the step thread waits for each copy: bus and step add up.
TEST(PipelineVerdict, SyncCopiesMakeBusAndStepTakeTurns) {
  const PipelineVerdict async = judge_pipeline({0.7, 0, 0.45, 0.5, false});
  EXPECT_EQ(async.bound_by, BoundBy::cpu_workers);
  const PipelineVerdict sync = judge_pipeline({0.7, 0, 0.45, 0.5, true});
  EXPECT_EQ(sync.bound_by, BoundBy::gpu_step);
  EXPECT_TRUE(contains(sync.reason, "take turns (95% together)")) << sync.reason;
}

TEST(PipelineVerdict, SaysWhenNoStageIsSaturated) {
  const PipelineVerdict verdict = judge_pipeline({0.2, 0, 0.1, 0.3, false});
  EXPECT_TRUE(contains(verdict.reason, "no stage is saturated")) << verdict.reason;
}

TEST(PipelineVerdict, NamesTheGpuDecodeWithTheCopyAndTheNormalizeWithTheStep) {
  StageUtilization load{0.2, 0.1, 0.9, 0.3, false};
  load.gpu_decoder = "nvJPEG hybrid";
  PipelineVerdict verdict = judge_pipeline(load);
  EXPECT_EQ(verdict.bound_by, BoundBy::bus);
  EXPECT_TRUE(contains(verdict.reason,
                       "bound by the JPEG bytes' copy and their decode on the GPU (nvJPEG hybrid): "
                       "busy 90%"))
      << verdict.reason;
  EXPECT_TRUE(contains(verdict.reason, "bus+GPU decode 90%")) << verdict.reason;
  EXPECT_EQ(verdict.workers_to_keep_up, 0u) << "the workers do not decode";
  load.step = 0.95;
  verdict = judge_pipeline(load);
  EXPECT_TRUE(contains(verdict.reason, "bound by the GPU step (GPU normalize included)"))
      << verdict.reason;
  load.workers = 0.99;
  verdict = judge_pipeline(load);
  EXPECT_TRUE(contains(verdict.reason, "the CPU workers (packing JPEG bytes)")) << verdict.reason;
}

}  // namespace
}  // namespace h2d
