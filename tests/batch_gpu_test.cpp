// The batch pieces on a real GPU: each pin policy yields the memory kind CUDA should report, the
// packed device views hold the right bytes, the predict output comes back, the normalize kernel
// agrees with the reference. Skipped without a usable GPU.

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <vector>

#include "harness/batch/batch_device.hpp"
#include "harness/batch/batch_staging.hpp"
#include "harness/core/checksum.hpp"
#include "harness/core/verification.hpp"
#include "harness/cuda/cuda_error.hpp"
#include "harness/cuda/device.hpp"
#include "harness/cuda/device_buffer.hpp"
#include "harness/cuda/scoped_device.hpp"
#include "harness/cuda/stream_work_timing.hpp"
#include "harness/host/normalize.hpp"
#include "kernels/normalize.cuh"
#include "tests/batch_test_support.hpp"
#include "tests/gpu_test_support.hpp"

namespace h2d {
namespace {

// Odd sizes, so the packed offsets carry padding: the tile's members at 3x33x47.
const SampleSpec& odd_tile() {
  static const SampleSpec spec = testing::small_tile(3, 33, 47);
  return spec;
}

bool is_pinned(const void* pointer) {
  return actual_kind(pointer) == ActualKind::pinned;
}

// One batch case on GPU 0, everything the family allocates: plans, samples, host staging with
// real pinned memory, device block.
struct Batch {
  Batch(BatchTask task, BatchLayout layout_kind, PinPolicy policy, std::size_t size,
        std::uint64_t seed, const SampleSpec& spec = odd_tile(), Collate collate = Collate::pad)
      : layout(plan_layout(layout_kind,
                           batch_contents(spec, sent_members(spec, task), size, collate, seed))),
        transfer(plan_transfer(layout, policy)),
        samples(layout.contents, seed),
        staging(layout, transfer, HostKind::pinned),
        device(0, layout, transfer, task) {}

  LayoutPlan layout;
  TransferPlan transfer;
  SampleSet samples;
  BatchStaging staging;
  BatchDevice device;
};

// A stream, its events and a latch on GPU 0.
struct Rig {
  Stream stream{0};
  Event start{0};
  Event h2d_done{0};
  Event model_done{0};
  Event stop{0};
  StreamLatch latch{0, Latching::on};

  // One batch into `slot`, latched when the copies allow it (never with pageable memory).
  void run(Batch& batch, std::size_t slot) {
    batch.staging.prepare(batch.samples, slot);
    const std::vector<HostCopy>& copies = batch.staging.copies(slot);
    const CopyTiming timing =
        time_stream_work([&] { batch.device.enqueue(copies, stream, h2d_done, model_done); },
                         latchable(copies, is_pinned) ? &latch : nullptr, stream, start, stop);
    EXPECT_GT(timing.seconds, 0);
  }
};

// The user story, as PyTorch 2.11 behaves: pin=requested pins a tensor, a tuple and a list member
// by member, and leaves a custom batch class pageable.
double expected_pinned_fraction(BatchLayout layout, PinPolicy policy) {
  if (policy == PinPolicy::none) {
    return 0;
  }
  if (policy == PinPolicy::requested) {
    return layout == BatchLayout::custom ? 0 : 1;
  }
  return 1;
}

TEST(BatchGpu, EachPolicyYieldsTheExpectedMemoryKindAndEveryMemberArrives) {
  H2D_REQUIRE_GPU();
  ScopedDevice on(0);
  Rig rig;
  for (BatchLayout layout_kind : all_batch_layouts()) {
    for (PinPolicy policy : all_pin_policies()) {
      SCOPED_TRACE(std::string(to_string(layout_kind)) + "/" + std::string(to_string(policy)));
      Batch batch(BatchTask::train, layout_kind, policy, 3, 42);
      for (std::size_t slot = 0; slot < batch.staging.slots(); ++slot) {
        EXPECT_EQ(pinned_fraction(batch.staging.copies(slot), is_pinned),
                  expected_pinned_fraction(layout_kind, policy));
        batch.device.clear(rig.stream);
        EXPECT_THROW(batch.device.verify_arrived(batch.samples, rig.stream), VerificationError);
        rig.run(batch, slot);
        EXPECT_NO_THROW(batch.device.verify_arrived(batch.samples, rig.stream));
      }
    }
  }
}

// A detection-like sample whose per-object members vary (some samples have none), padded or as a
// tensor a sample: every member of every sample arrives, whatever the layout and pin policy, and
// predict (the image alone) brings its output back.
TEST(BatchGpu, AVaryingSampleArrivesPaddedOrAsATensorASample) {
  H2D_REQUIRE_GPU();
  ScopedDevice on(0);
  Rig rig;
  const SampleSpec boxes =
      parse_sample("image:3x9x11:float32,boxes:0..5x4:float32,labels:0..5:int64,size:2:int64");
  for (BatchLayout layout_kind : all_batch_layouts()) {
    for (Collate collate : {Collate::pad, Collate::list}) {
      for (PinPolicy policy : all_pin_policies()) {
        SCOPED_TRACE(std::string(to_string(layout_kind)) + "/" + std::string(to_string(collate)) +
                     "/" + std::string(to_string(policy)));
        for (BatchTask task : {BatchTask::train, BatchTask::predict}) {
          Batch batch(task, layout_kind, policy, 6, 21, boxes, collate);
          batch.device.clear(rig.stream);
          rig.run(batch, 0);
          EXPECT_NO_THROW(batch.device.verify_arrived(batch.samples, rig.stream));
          if (task == BatchTask::predict) {
            // The first plane of each sample's image (3 planes of 9x11 floats) comes back.
            EXPECT_EQ(batch.device.output().size(), 6u * 9 * 11 * sizeof(float));
            EXPECT_NO_THROW(batch.device.verify_output(batch.samples));
          }
        }
      }
    }
  }
}

TEST(BatchGpu, DeviceBlockEqualsTheHostPackedLayoutByteForByte) {
  H2D_REQUIRE_GPU();
  ScopedDevice on(0);
  Rig rig;
  for (BatchLayout layout_kind : all_batch_layouts()) {
    for (PinPolicy policy : {PinPolicy::per_member, PinPolicy::packed, PinPolicy::pinned_slots}) {
      SCOPED_TRACE(std::string(to_string(layout_kind)) + "/" + std::string(to_string(policy)));
      Batch batch(BatchTask::train, layout_kind, policy, 4, 9);
      const PackPlan& pack = batch.transfer.pack;
      batch.device.clear(rig.stream);
      rig.run(batch, 0);
      // After the stream synchronized in run(); a D2H cudaMemcpy into pageable memory returns
      // once the data is on the host.
      std::vector<std::byte> arrived(pack.bytes);
      H2D_CUDA_CHECK(cudaMemcpy(arrived.data(), batch.device.block().data(), arrived.size(),
                                cudaMemcpyDeviceToHost));
      // Build the packed block on the host from the samples and the plan alone.
      std::vector<std::byte> expected(pack.bytes, std::byte{0});
      for (std::size_t sample = 0; sample < 4; ++sample) {
        for (Member member = 0; member < batch.layout.member_count(); ++member) {
          std::memcpy(expected.data() + packed_offset(batch.layout, pack, member, sample),
                      batch.samples.data(member, sample), batch.samples.bytes(member, sample));
        }
      }
      EXPECT_TRUE(arrived == expected);
      EXPECT_EQ(batch.device.view(testing::kMask, 2),
                batch.device.block().data() + packed_offset(batch.layout, pack, testing::kMask, 2));
    }
  }
}

TEST(BatchGpu, PredictOutputComesBackIntoPinnedMemory) {
  H2D_REQUIRE_GPU();
  ScopedDevice on(0);
  Rig rig;
  for (BatchLayout layout_kind : all_batch_layouts()) {
    for (PinPolicy policy : {PinPolicy::none, PinPolicy::requested, PinPolicy::pinned_slots}) {
      SCOPED_TRACE(std::string(to_string(layout_kind)) + "/" + std::string(to_string(policy)));
      Batch batch(BatchTask::predict, layout_kind, policy, 5, 3);
      const BatchDevice& device = batch.device;
      ASSERT_EQ(device.output().size(),
                BatchDevice::output_bytes(batch.layout, BatchTask::predict));
      EXPECT_EQ(device.output().size(), 5u * 33 * 47 * sizeof(float));
      EXPECT_TRUE(is_pinned(device.output().data()));
      device.clear(rig.stream);
      EXPECT_THROW(device.verify_output(batch.samples), VerificationError);
      rig.run(batch, 0);
      EXPECT_NO_THROW(device.verify_output(batch.samples));
      EXPECT_NO_THROW(device.verify_arrived(batch.samples, rig.stream));
    }
  }
}

TEST(BatchGpu, NormalizeKernelMatchesTheReference) {
  H2D_REQUIRE_GPU();
  ScopedDevice on(0);
  const SampleShape shape{3, 37, 53};
  const std::size_t samples = 2;
  const ChannelStats stats = imagenet_stats();
  const NormalizeParams params = make_normalize_params(stats);
  std::vector<std::uint8_t> hwc(samples * shape.values());
  fill_pattern(hwc.data(), hwc.size(), 77);
  const Stream stream(0);
  const DeviceBuffer pixels(0, hwc.size());
  const DeviceBuffer floats(0, hwc.size() * sizeof(float));
  // Everything on the one non-blocking stream: it does not wait for the legacy default stream.
  H2D_CUDA_CHECK(
      cudaMemcpyAsync(pixels.data(), hwc.data(), hwc.size(), cudaMemcpyHostToDevice, stream.get()));
  H2D_CUDA_CHECK(cudaMemsetAsync(floats.data(), 0, floats.size(), stream.get()));
  H2D_CUDA_CHECK(kernels::launch_normalize(reinterpret_cast<const unsigned char*>(pixels.data()),
                                           reinterpret_cast<float*>(floats.data()), samples,
                                           shape.height, shape.width, params, stream.get()));
  stream.synchronize();
  std::vector<float> chw(hwc.size());
  H2D_CUDA_CHECK(cudaMemcpy(chw.data(), floats.data(), floats.size(), cudaMemcpyDeviceToHost));
  EXPECT_LE(max_abs_error(chw.data(), hwc.data(), samples, shape, stats),
            normalize_error_bound(params));

  NormalizeParams none;
  EXPECT_EQ(kernels::launch_normalize(reinterpret_cast<const unsigned char*>(pixels.data()),
                                      reinterpret_cast<float*>(floats.data()), samples,
                                      shape.height, shape.width, none, stream.get()),
            cudaErrorInvalidValue);
}

}  // namespace
}  // namespace h2d
