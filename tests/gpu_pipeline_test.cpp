// The pipeline on a GPU: copy and compute streams, pinned ring, events. Skipped without a GPU.

#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "harness/core/case_skipped.hpp"
#include "harness/core/checksum.hpp"
#include "harness/core/sample_spec.hpp"
#include "harness/cuda/cuda_error.hpp"
#include "harness/cuda/device.hpp"
#include "harness/cuda/device_buffer.hpp"
#include "harness/cuda/scoped_device.hpp"
#include "harness/cuda/stream.hpp"
#include "harness/pipeline/gpu/gpu_step_engine.hpp"
#include "harness/pipeline/jpeg_slot.hpp"
#include "harness/pipeline/pipeline.hpp"
#include "harness/pipeline/pipeline_case.hpp"
#include "harness/pipeline/pipeline_sweep.hpp"
#include "harness/pipeline/pipeline_verdict.hpp"
#include "harness/pipeline/slot_layout.hpp"
#include "harness/pipeline/worker_processes.hpp"
#include "kernels/segment_checksum.cuh"
#include "tests/gpu_test_support.hpp"
#include "tests/pipeline_test_support.hpp"
#include "tests/process_runner.hpp"

namespace h2d {
namespace {

PipelineConfig gpu_config(PinMode pin, CopyMode copy, LoopKind loop) {
  return testing::test_pipeline_config(pin, copy, loop, /*batch_size=*/8, /*tile=*/32,
                                       /*compute_us=*/100);
}

using testing::describe_result;

// Per-sample checksums computed on the device equal the host's, for sizes that are not a whole
// number of words.
TEST(GpuPipeline, SegmentChecksumsMatchTheHost) {
  H2D_REQUIRE_GPU();
  ScopedDevice on(0);
  constexpr std::size_t kSegment = 1003;
  constexpr unsigned kSegments = 13;
  std::vector<std::byte> host(kSegment * kSegments);
  fill_pattern(host.data(), host.size(), 77);
  DeviceBuffer data(0, host.size());
  DeviceBuffer sums(0, kSegments * sizeof(unsigned long long));
  Stream stream(0);
  // On `stream`, not with cudaMemcpy: from pageable memory that may return before its DMA has
  // landed, and the kernel on our non-blocking stream would not wait for the legacy stream.
  H2D_CUDA_CHECK(
      cudaMemcpyAsync(data.data(), host.data(), host.size(), cudaMemcpyHostToDevice, stream.get()));
  H2D_CUDA_CHECK(cudaMemsetAsync(sums.data(), 0, sums.size(), stream.get()));
  H2D_CUDA_CHECK(kernels::launch_segment_checksums(
      data.data(), kSegment, kSegments, reinterpret_cast<unsigned long long*>(sums.data()),
      stream.get()));
  std::vector<unsigned long long> device_sums(kSegments);
  H2D_CUDA_CHECK(cudaMemcpyAsync(device_sums.data(), sums.data(), sums.size(),
                                 cudaMemcpyDeviceToHost, stream.get()));
  stream.synchronize();
  for (unsigned i = 0; i < kSegments; ++i) {
    EXPECT_EQ(device_sums[i], host_checksum(host.data() + i * kSegment, kSegment)) << i;
  }
}

// One epoch of `config` on GPU 0, which must complete with every batch verified and intact.
EpochResult expect_every_batch_verified(const PipelineConfig& config) {
  GpuStepEngine engine(0, config);
  Pipeline pipeline(config, engine);
  const EpochResult result = pipeline.run_epoch();
  EXPECT_EQ(result.end, EpochEnd::completed) << describe_result(result);
  EXPECT_EQ(result.verified, config.batches);
  EXPECT_EQ(result.checksum_failures + result.lost_batches, 0u) << describe_result(result);
  return result;
}

TEST(GpuPipeline, EveryModeDeliversEveryBatchIntact) {
  H2D_REQUIRE_GPU();
  // pin_thread with pin_threads=3: the pin hop as a team copy into the pinned slot.
  const std::vector<std::pair<PinMode, std::size_t>> pins{{PinMode::none, 1},
                                                          {PinMode::pin_thread, 1},
                                                          {PinMode::pin_thread, 3},
                                                          {PinMode::pinned_ring, 1}};
  for (LoopKind loop : {LoopKind::train, LoopKind::predict}) {
    for (const auto& [pin, pin_threads] : pins) {
      for (CopyMode copy : {CopyMode::sync, CopyMode::async}) {
        PipelineConfig config = gpu_config(pin, copy, loop);
        config.pin_threads = pin_threads;
        SCOPED_TRACE(describe(config));
        GpuStepEngine engine(0, config);
        Pipeline pipeline(config, engine);
        for (int epoch = 0; epoch < 2; ++epoch) {
          const EpochResult result = pipeline.run_epoch();
          EXPECT_EQ(result.end, EpochEnd::completed) << describe_result(result);
          EXPECT_EQ(result.completed, config.batches);
          EXPECT_EQ(result.verified, config.batches);
          EXPECT_EQ(result.checksum_failures, 0u) << describe_result(result);
          EXPECT_EQ(result.lost_batches, 0u) << describe_result(result);
          EXPECT_GT(result.copy_s, 0);
          EXPECT_GE(result.compute_s, 0.9 * result.measured * config.compute_us * 1e-6);
        }
      }
    }
  }
}

// Worker processes feeding the GPU: every pin and shm mode, both loops, every batch intact; the
// workers (h2d_loader_worker) never touch the device, the main process copies what they wrote.
TEST(GpuPipeline, WorkerProcessesDeliverEveryBatchInEveryPinAndShmMode) {
  H2D_REQUIRE_GPU();
  // The program this test's runtime (real or simulated) is linked into has the CUDA calls; the
  // workers' program has none, so only this process can ever use the device.
  ASSERT_TRUE(testing::file_contains(testing::h2dbench_path(), "cudaMemcpyAsync"));
  ASSERT_FALSE(testing::file_contains(loader_worker_program(), "cudaMemcpyAsync"));
  const std::vector<std::pair<PinMode, ShmMode>> modes{{PinMode::none, ShmMode::fresh},
                                                       {PinMode::pin_thread, ShmMode::fresh},
                                                       {PinMode::none, ShmMode::reused},
                                                       {PinMode::pin_thread, ShmMode::reused},
                                                       {PinMode::shared_pinned, ShmMode::reused}};
  for (LoopKind loop : {LoopKind::train, LoopKind::predict}) {
    for (const auto& [pin, shm] : modes) {
      PipelineConfig config = gpu_config(pin, CopyMode::async, loop);
      config.worker = WorkerKind::process;
      config.shm = shm;
      config.workers = 2;
      config.batches = 16;
      SCOPED_TRACE(describe(config));
      const EpochResult result = expect_every_batch_verified(config);
      EXPECT_FALSE(result.handoff_s.empty());
      EXPECT_EQ(result.pin_busy_s > 0, pin == PinMode::pin_thread) << "only pin_thread copies";
    }
  }
}

// A --sample of several members, one varying: the device checksums each sample's members where
// the slot holds them (the kernel once a member, continuing the sample's words) and they match
// what the workers made, threads or processes, in every pin mode.
TEST(GpuPipeline, TheMembersOfAVaryingSampleArriveIntact) {
  H2D_REQUIRE_GPU();
  struct Mode {
    WorkerKind worker;
    PinMode pin;
    ShmMode shm;
    bool packed;
  };
  const std::vector<Mode> modes{
      {WorkerKind::thread, PinMode::none, ShmMode::fresh, false},
      {WorkerKind::thread, PinMode::pinned_ring, ShmMode::fresh, false},
      {WorkerKind::process, PinMode::pin_thread, ShmMode::fresh, false},
      {WorkerKind::process, PinMode::none, ShmMode::fresh, true},
      {WorkerKind::process, PinMode::shared_pinned, ShmMode::reused, false}};
  for (LoopKind loop : {LoopKind::train, LoopKind::predict}) {
    for (const Mode& mode : modes) {
      PipelineConfig config = gpu_config(mode.pin, CopyMode::async, loop);
      config.sample = parse_sample("image:3x16x16:uint8,boxes:0..7x4:float32,labels:0..7:int64");
      config.worker = mode.worker;
      config.shm = mode.shm;
      config.packed_members = mode.packed;
      config.workers = 2;
      config.batches = 12;
      SCOPED_TRACE(describe(config));
      expect_every_batch_verified(config);
    }
  }
}

// decode=gpu end to end: the workers pack JPEG bytes, only those (and the ids) cross, nvJPEG
// decodes them (timed as the step, not the bus) and the GPU normalizes; every batch's ids come back
// in place and a sample of the decoded pixels of each is within the tolerance of libjpeg-turbo's
// decode. Where the build has no nvJPEG (the simulated GPU) the engine skips with that reason.
TEST(GpuPipeline, GpuDecodeDeliversDecodedBatchesOrSkipsNamingNvjpeg) {
  H2D_REQUIRE_GPU();
  for (PinMode pin : {PinMode::pinned_ring, PinMode::pin_thread, PinMode::none}) {
    PipelineConfig config = testing::test_pipeline_config(pin, CopyMode::async, LoopKind::train,
                                                          /*batch_size=*/8, kDecodeTile,
                                                          /*compute_us=*/100);
    config.decode = DecodeMode::gpu;
    config.verify_every = 1;
    SCOPED_TRACE(describe(config));
    std::optional<GpuStepEngine> engine;
    try {
      engine.emplace(0, config);
    } catch (const CaseSkipped& skipped) {
      EXPECT_NE(std::string(skipped.what()).find("nvJPEG"), std::string::npos) << skipped.what();
      GTEST_SKIP() << skipped.what();
    }
    EXPECT_NE(engine->gpu_decoder().find("nvJPEG"), std::string::npos);
    const PipelineConfig run = with_decode_inputs(config, RunImages());
    Pipeline pipeline(run, *engine);
    const EpochResult result = pipeline.run_epoch();
    ASSERT_EQ(result.end, EpochEnd::completed) << describe_result(result);
    EXPECT_EQ(result.verified, run.batches);
    EXPECT_EQ(result.checksum_failures, 0u) << describe_result(result);
    EXPECT_EQ(result.lost_batches, 0u) << describe_result(result);
    // What crossed: the ids and the JPEG bytes, far fewer than the float32 batches.
    const std::uint64_t ids = result.measured * run.batch_size * sizeof(std::uint64_t);
    EXPECT_GT(result.copied_bytes, ids);
    EXPECT_LE(result.copied_bytes, ids + result.measured * jpeg_slot_layout(run).capacity);
    EXPECT_LT(result.copied_bytes, result.measured * SlotLayout(run).host_bytes() / 4);
    // nvJPEG's call (the JPEG bytes' copy and their decode) is the step; the bus, the ids' copy.
    EXPECT_GT(result.compute_s, result.copy_s) << describe_result(result);
  }
}

TEST(GpuPipeline, VerdictFollowsTheSlowestStage) {
  H2D_REQUIRE_GPU();
  PipelineConfig step_bound = gpu_config(PinMode::pinned_ring, CopyMode::async, LoopKind::train);
  step_bound.compute_us = 5000;
  step_bound.batches = 30;
  PipelineConfig cpu_bound = step_bound;
  cpu_bound.workers = 1;
  cpu_bound.sample_us = 2000;
  cpu_bound.compute_us = 100;
  for (const auto& [config, expected] :
       {std::pair{step_bound, BoundBy::gpu_step}, std::pair{cpu_bound, BoundBy::cpu_workers}}) {
    GpuStepEngine engine(0, config);
    Pipeline pipeline(config, engine);
    const EpochResult result = pipeline.run_epoch();
    ASSERT_EQ(result.end, EpochEnd::completed) << describe_result(result);
    const PipelineVerdict verdict = judge_pipeline(stage_utilization(config, result));
    EXPECT_EQ(verdict.bound_by, expected) << describe(config) << ": " << verdict.reason;
  }
}

TEST(GpuPipeline, WatchdogNamesAStuckPinThread) {
  H2D_REQUIRE_GPU();
  PipelineConfig config = gpu_config(PinMode::pin_thread, CopyMode::async, LoopKind::predict);
  config.workers = 1;
  config.watchdog = std::chrono::duration<double>(0.5);
  PipelineHooks hooks;
  hooks.before_batch = [](PipelineStage stage, std::uint64_t batch, const Cancellation& cancel) {
    if (stage == PipelineStage::pin && batch == 4) {
      cancel.wait_for(std::chrono::hours(1));
    }
  };
  GpuStepEngine engine(0, config);
  Pipeline pipeline(config, engine, hooks);
  const EpochResult result = pipeline.run_epoch();
  EXPECT_EQ(result.end, EpochEnd::stalled);
  EXPECT_NE(result.message.find("stuck stage: 'pin'"), std::string::npos) << result.message;
  EXPECT_EQ(result.checksum_failures + result.lost_batches, 0u) << describe_result(result);
}

}  // namespace
}  // namespace h2d
