// harness/cuda/cupti_activity.cpp reads the sim's CUPTI records through its views as it reads
// real ones: copies with their host memory kind, kernels by name, the calls that queued them.

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "harness/cuda/cupti_activity.hpp"
#include "harness/trace/activity_record.hpp"
#include "kernels/busy.cuh"

namespace {

constexpr std::size_t kBytes = 1 << 20;

TEST(SimCuptiHarness, CuptiActivitySeesPageableAndPinnedCopiesAndWhoQueuedThem) {
  void* device = nullptr;
  void* pinned = nullptr;
  std::vector<unsigned char> pageable(kBytes, 3);
  ASSERT_EQ(cudaMalloc(&device, kBytes), cudaSuccess);
  ASSERT_EQ(cudaMallocHost(&pinned, kBytes), cudaSuccess);
  h2d::CuptiActivity activity;
  ASSERT_EQ(cudaMemcpyAsync(device, pageable.data(), kBytes, cudaMemcpyHostToDevice, nullptr),
            cudaSuccess);
  ASSERT_EQ(cudaMemcpyAsync(device, pinned, kBytes, cudaMemcpyHostToDevice, nullptr), cudaSuccess);
  ASSERT_EQ(h2d::kernels::launch_busy(1000, 1, nullptr), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(nullptr), cudaSuccess);
  const h2d::CuptiActivity::Result result = activity.stop();
  EXPECT_EQ(result.dropped, 0u);
  const h2d::CallIndex calls(result.records);
  std::vector<h2d::MemoryKind> sources;
  int kernels = 0;
  bool synchronized = false;
  for (const h2d::ActivityRecord& record : result.records) {
    if (record.kind == h2d::ActivityKind::memcpy) {
      EXPECT_EQ(record.copy, h2d::CopyKind::h2d);
      EXPECT_EQ(record.bytes, kBytes);
      sources.push_back(record.source);
      const h2d::ActivityRecord* call = calls.queued_by(record);
      ASSERT_NE(call, nullptr);
      EXPECT_EQ(call->name, "cudaMemcpyAsync");
    } else if (record.kind == h2d::ActivityKind::kernel) {
      ++kernels;
      EXPECT_EQ(record.name, "busy_kernel");
      ASSERT_NE(calls.queued_by(record), nullptr);
      EXPECT_EQ(calls.queued_by(record)->name, "cudaLaunchKernel");
    } else if (record.kind == h2d::ActivityKind::api_call) {
      synchronized = synchronized || record.name == "cudaStreamSynchronize";
      EXPECT_NE(record.thread, 0u);
    }
  }
  EXPECT_EQ(sources,
            (std::vector<h2d::MemoryKind>{h2d::MemoryKind::pageable, h2d::MemoryKind::pinned}));
  EXPECT_EQ(kernels, 1);
  EXPECT_TRUE(synchronized) << "waits are kept";
  cudaFree(device);
  cudaFreeHost(pinned);
}

}  // namespace
