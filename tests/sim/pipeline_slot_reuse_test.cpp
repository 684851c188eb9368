// A pinned slot goes back to the loader only once the copy that reads it has landed. With one
// slot on a slow modelled link the loader (no CPU work per sample) is ready with the next batch
// long before the copy ends, so a slot handed back early is refilled while its copy still reads
// it, and the batch arrives holding the next one's bytes (the planted bug
// tests/mutants/slot-refilled-before-its-copy.patch). With the default ring of several slots
// the free list hands out slots whose copies ended long ago, which hides the bug.
// Sim-only: it needs a link slow enough to hold each copy for milliseconds.

#include <gtest/gtest.h>

#include "harness/core/sample_spec.hpp"
#include "harness/cuda/batched_copy.hpp"
#include "harness/pipeline/gpu/gpu_step_engine.hpp"
#include "harness/pipeline/pipeline.hpp"
#include "harness/pipeline/pipeline_case.hpp"
#include "tests/pipeline_test_support.hpp"
#include "tests/sim/runtime_test_support.hpp"

namespace h2d {
namespace {

// 8 samples of a 64-pixel tile per batch (98 KiB) through a `pin` loop on the slow link.
PipelineConfig slow_link_config(PinMode pin) {
  return testing::test_pipeline_config(pin, CopyMode::async, LoopKind::train, /*batch_size=*/8,
                                       /*tile=*/64, /*compute_us=*/10);
}

// One epoch: every batch verified, none wrong.
void expect_every_batch_intact(const PipelineConfig& config) {
  SCOPED_TRACE(describe(config));
  GpuStepEngine engine(0, config);
  Pipeline pipeline(config, engine);
  const EpochResult result = pipeline.run_epoch();
  EXPECT_EQ(result.end, EpochEnd::completed) << testing::describe_result(result);
  EXPECT_EQ(result.verified, config.batches);
  EXPECT_EQ(result.checksum_failures, 0u) << testing::describe_result(result);
}

TEST(GpuPipelineSlowLink, ASlotIsRefilledOnlyAfterItsCopyLanded) {
  // 8 samples of a 64-pixel tile per batch (98 KiB): each copy holds its slot for half a
  // millisecond at 0.2 GB/s, while the loader refills a slot in microseconds. Small, so that
  // scripts/ci/tsan.sh can run it under ThreadSanitizer too.
  const sim::SimMachine machine({{"H2D_SIM_DEVICES", "1"}, {"H2D_SIM_H2D_GBPS", "0.2"}});
  for (PinMode pin : {PinMode::pin_thread, PinMode::pinned_ring}) {
    PipelineConfig config = slow_link_config(pin);
    config.batches = 6;
    config.slots = 1;
    expect_every_batch_intact(config);
  }
}

// The same when the copy hop is one cudaMemcpyBatchAsync of the slot's regions (memcpy=batched,
// a sample of three members): the slot goes back only after the whole batch of copies landed (the
// planted bug tests/mutants/batched-copy-hands-its-slot-back-before-it-lands.patch).
TEST(GpuPipelineSlowLink, ABatchedCopyHandsItsSlotBackOnlyAfterEveryRegionLanded) {
  if (!batched_copy_built()) {
    GTEST_SKIP() << batched_copy_missing();
  }
  const sim::SimMachine machine({{"H2D_SIM_DEVICES", "1"}, {"H2D_SIM_H2D_GBPS", "0.2"}});
  for (PinMode pin : {PinMode::pin_thread, PinMode::pinned_ring}) {
    PipelineConfig config = slow_link_config(pin);
    config.sample = parse_sample("image:3x64x64:float32,boxes:0..9x4:float32,labels:0..9:int64");
    config.batched_copy = true;
    config.batches = 6;
    config.slots = 1;
    expect_every_batch_intact(config);
  }
}

// The same for the shared pinned ring of worker processes (pin=shared_pinned): the receiver hands a
// slot to a worker only after the copy that read it has landed (the planted bug
// tests/mutants/shared-slot-handed-to-a-worker-before-its-copy.patch). One worker, one batch
// asked ahead: a ring of two slots, each refilled as soon as the step hands it back.
TEST(GpuPipelineSlowLink, ASharedPinnedSlotIsHandedToAWorkerOnlyAfterItsCopyLanded) {
  const sim::SimMachine machine({{"H2D_SIM_DEVICES", "1"}, {"H2D_SIM_H2D_GBPS", "0.2"}});
  PipelineConfig config = slow_link_config(PinMode::shared_pinned);
  config.worker = WorkerKind::process;
  config.shm = ShmMode::reused;
  config.workers = 1;
  config.prefetch = 1;
  config.slots = 2;
  config.batches = 12;
  expect_every_batch_intact(config);
}

}  // namespace
}  // namespace h2d
