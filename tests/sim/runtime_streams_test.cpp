#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "sim/device/sanitizer_build.hpp"
#include "sim/runtime/activity_log.hpp"
#include "sim/runtime/kernel_queue.hpp"
#include "tests/sim/runtime_test_support.hpp"

namespace h2d::sim {
namespace {

// A kernel that holds its stream until `release` is set: the latch's shape.
void hold(cudaStream_t stream, std::atomic<bool>& release) {
  ASSERT_EQ(enqueue_kernel(stream, "hold",
                           [&release] {
                             while (!release) {
                               std::this_thread::sleep_for(std::chrono::microseconds(100));
                             }
                           }),
            cudaSuccess);
}

// A copy's bytes land as the modelled copy carries them, as DMA writes them: never ahead of the
// model, the first of them well before its end, the last at its end.
TEST(SimStreams, BytesLandAsTheModelledCopyCarriesThemNeverAhead) {
  SimMachine machine({{"H2D_SIM_H2D_GBPS", "0.05"}, {"H2D_SIM_D2H_GBPS", "0.05"}});
  constexpr std::size_t kBytes = 8 * kMiB;  // ~168 ms at 0.05 GB/s
  void* device = nullptr;
  void* host = nullptr;
  ASSERT_EQ(cudaMalloc(&device, kBytes), cudaSuccess);
  ASSERT_EQ(cudaMallocHost(&host, kBytes), cudaSuccess);
  std::memset(host, 7, kBytes);
  ASSERT_EQ(cudaMemset(device, 0, kBytes), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
  const auto* landed = static_cast<const volatile unsigned char*>(device);
  const auto enqueued = std::chrono::steady_clock::now();
  ASSERT_EQ(cudaMemcpyAsync(device, host, kBytes, cudaMemcpyHostToDevice, stream), cudaSuccess);
  // The first bytes land while the copy still runs; the last not before its end.
  while (landed[0] == 0 && cudaStreamQuery(stream) == cudaErrorNotReady) {
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  EXPECT_EQ(cudaStreamQuery(stream), cudaErrorNotReady) << "the first byte landed only at the end";
  EXPECT_EQ(landed[kBytes - 1], 0);
  ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  EXPECT_GE(std::chrono::steady_clock::now() - enqueued, std::chrono::milliseconds(160));
  EXPECT_EQ(landed[0], 7);
  EXPECT_EQ(landed[kBytes - 1], 7);
  EXPECT_EQ(cudaStreamQuery(stream), cudaSuccess);
  EXPECT_EQ(cudaStreamDestroy(stream), cudaSuccess);
  EXPECT_EQ(cudaFree(device), cudaSuccess);
  EXPECT_EQ(cudaFreeHost(host), cudaSuccess);
}

// A pitched copy lands row after row, each row at its pitch at either end, whichever steps the
// model cuts it into (rows of 3,000 bytes are not a multiple of the steps' bytes).
TEST(SimStreams, APitchedCopyLandsEveryRowAtItsPitch) {
  SimMachine machine({{"H2D_SIM_H2D_GBPS", "0.5"}});
  constexpr std::size_t kWidth = 3000, kHeight = 700, kSourcePitch = 3072, kDevicePitch = 4096;
  std::vector<unsigned char> source(kSourcePitch * kHeight);
  for (std::size_t i = 0; i < source.size(); ++i) {
    source[i] = static_cast<unsigned char>(i * 31 + 7);
  }
  void* device = nullptr;
  ASSERT_EQ(cudaMalloc(&device, kDevicePitch * kHeight), cudaSuccess);
  ASSERT_EQ(cudaMemset(device, 0, kDevicePitch * kHeight), cudaSuccess);
  void* pinned = nullptr;
  ASSERT_EQ(cudaMallocHost(&pinned, source.size()), cudaSuccess);
  std::memcpy(pinned, source.data(), source.size());
  for (const void* from :
       {static_cast<const void*>(source.data()), static_cast<const void*>(pinned)}) {
    ASSERT_EQ(cudaMemset(device, 0, kDevicePitch * kHeight), cudaSuccess);
    ASSERT_EQ(cudaMemcpy2DAsync(device, kDevicePitch, from, kSourcePitch, kWidth, kHeight,
                                cudaMemcpyHostToDevice, nullptr),
              cudaSuccess);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const auto* rows = static_cast<const unsigned char*>(device);
    std::size_t wrong = 0;
    for (std::size_t row = 0; row < kHeight; ++row) {
      wrong +=
          std::memcmp(rows + row * kDevicePitch, source.data() + row * kSourcePitch, kWidth) != 0;
      for (std::size_t gap = kWidth; gap < kDevicePitch; ++gap) {
        wrong += rows[row * kDevicePitch + gap] != 0;
      }
    }
    EXPECT_EQ(wrong, 0u) << (from == pinned ? "pinned source" : "pageable source");
  }
  EXPECT_EQ(cudaFree(device), cudaSuccess);
  EXPECT_EQ(cudaFreeHost(pinned), cudaSuccess);
}

// The copy reads its pinned source when it runs, not when it is enqueued, so a loader that refills
// a slot before the copy's event ends sends the refill, not the batch it meant. A host thread
// racing a stream worker on a buffer: under TSan it runs only as scripts/ci/tsan.sh's GPU-side
// canary, which must see TSan report it (the clean GPU pipeline run there proves nothing
// otherwise). Deterministic on a loaded machine: the stream is held by a kernel that waits on a
// relaxed flag, the refill comes before the flag is set, and the host waits for the copy on another
// relaxed flag before it synchronizes. Relaxed atomics order nothing for TSan, and every lock the
// host takes that the stream worker also takes (the enqueues) comes before the refill, so the
// refill and the copy's read are unordered however the threads are scheduled. (Synchronizing right
// after the refill let a stream worker that had not yet taken the copy off its queue take it after
// the host's synchronize: ordered, no race, a canary that missed under load.)
TEST(SimStreams, APinnedSourceRewrittenBeforeTheCopyEndsIsWhatLands) {
#if defined(H2D_THREAD_SANITIZER)
  if (std::getenv("H2D_TSAN_CANARY") == nullptr) {
    GTEST_SKIP() << "a deliberate data race; run by scripts/ci/tsan.sh as its canary";
  }
#endif
  SimMachine machine({{"H2D_SIM_H2D_GBPS", "1"}});
  void* device = nullptr;
  void* host = nullptr;
  ASSERT_EQ(cudaMalloc(&device, 8 * kMiB), cudaSuccess);
  ASSERT_EQ(cudaMallocHost(&host, 8 * kMiB), cudaSuccess);
  std::memset(host, 7, 8 * kMiB);
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
  std::atomic<bool> go{false};
  std::atomic<bool> copied{false};
  const auto wait_relaxed = [](const std::atomic<bool>& flag) {
    while (!flag.load(std::memory_order_relaxed)) {
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
  };
  ASSERT_EQ(enqueue_kernel(stream, "hold", [&] { wait_relaxed(go); }), cudaSuccess);
  ASSERT_EQ(cudaMemcpyAsync(device, host, 8 * kMiB, cudaMemcpyHostToDevice, stream), cudaSuccess);
  ASSERT_EQ(enqueue_kernel(stream, "copied",
                           [&copied] { copied.store(true, std::memory_order_relaxed); }),
            cudaSuccess);
  std::memset(host, 9, 8 * kMiB);  // the refill, after the copy was enqueued
  go.store(true, std::memory_order_relaxed);
  wait_relaxed(copied);
  ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  EXPECT_EQ(static_cast<unsigned char*>(device)[8 * kMiB - 1], 9);
  EXPECT_EQ(cudaStreamDestroy(stream), cudaSuccess);
  EXPECT_EQ(cudaFree(device), cudaSuccess);
  EXPECT_EQ(cudaFreeHost(host), cudaSuccess);
}

TEST(SimStreams, EventTimingOfBackToBackCopiesReproducesTheModelledRate) {
  SimMachine machine({{"H2D_SIM_H2D_GBPS", "2"}});
  constexpr std::size_t kBytes = 4 * kMiB;
  constexpr int kCopies = 16;
  void* device = nullptr;
  void* host = nullptr;
  ASSERT_EQ(cudaMalloc(&device, kBytes), cudaSuccess);
  ASSERT_EQ(cudaHostAlloc(&host, kBytes, cudaHostAllocDefault), cudaSuccess);
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);
  ASSERT_EQ(cudaEventCreate(&start), cudaSuccess);
  ASSERT_EQ(cudaEventCreate(&stop), cudaSuccess);
  std::atomic<bool> release{false};
  hold(stream, release);
  ASSERT_EQ(cudaEventRecord(start, stream), cudaSuccess);
  for (int i = 0; i < kCopies; ++i) {
    ASSERT_EQ(cudaMemcpyAsync(device, host, kBytes, cudaMemcpyHostToDevice, stream), cudaSuccess);
  }
  ASSERT_EQ(cudaEventRecord(stop, stream), cudaSuccess);
  float ms = 0;
  EXPECT_EQ(cudaEventElapsedTime(&ms, start, stop), cudaErrorNotReady);
  release = true;
  ASSERT_EQ(cudaEventSynchronize(stop), cudaSuccess);
  ASSERT_EQ(cudaEventElapsedTime(&ms, start, stop), cudaSuccess);
  const double gb_per_s = kCopies * kBytes / (ms * 1e-3) / 1e9;
  // Each copy also pays the 10 us latency: 4 MiB at 2 GB/s is 2.1 ms, so ~0.5% below.
  EXPECT_NEAR(gb_per_s, 2.0, 2.0 * 0.03);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaStreamDestroy(stream);
  cudaFree(device);
  cudaFreeHost(host);
}

TEST(SimStreams, LegacyStreamWaitsForBlockingStreamsButNotNonBlockingOnes) {
  SimMachine machine({});
  cudaStream_t blocking = nullptr, non_blocking = nullptr;
  ASSERT_EQ(cudaStreamCreate(&blocking), cudaSuccess);
  ASSERT_EQ(cudaStreamCreateWithFlags(&non_blocking, cudaStreamNonBlocking), cudaSuccess);
  std::atomic<bool> release{false};
  hold(non_blocking, release);
  std::atomic<bool> legacy_ran{false};
  ASSERT_EQ(enqueue_kernel(nullptr, "legacy", [&] { legacy_ran = true; }), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(nullptr), cudaSuccess);  // not held by the non-blocking one
  EXPECT_TRUE(legacy_ran);
  release = true;

  std::atomic<bool> release_blocking{false};
  hold(blocking, release_blocking);
  std::atomic<bool> legacy_after{false};
  ASSERT_EQ(enqueue_kernel(cudaStreamLegacy, "legacy", [&] { legacy_after = true; }), cudaSuccess);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(legacy_after) << "the legacy stream must wait for the blocking stream's work";
  EXPECT_EQ(cudaStreamQuery(nullptr), cudaErrorNotReady);
  release_blocking = true;
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_TRUE(legacy_after);
  cudaStreamDestroy(blocking);
  cudaStreamDestroy(non_blocking);
}

TEST(SimStreams, PageableAsyncCopySynchronizesWithTheStreamFirst) {
  SimMachine machine({});
  void* device = nullptr;
  ASSERT_EQ(cudaMalloc(&device, kMiB), cudaSuccess);
  std::vector<unsigned char> pageable(kMiB, 3);
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
  std::atomic<bool> release{false};
  hold(stream, release);
  std::atomic<bool> returned{false};
  std::thread copier([&] {
    EXPECT_EQ(cudaMemcpyAsync(device, pageable.data(), kMiB, cudaMemcpyHostToDevice, stream),
              cudaSuccess);
    returned = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_FALSE(returned) << "a pageable copy behind a held stream blocks the caller";
  release = true;
  copier.join();
  ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  EXPECT_EQ(static_cast<unsigned char*>(device)[kMiB - 1], 3);
  cudaStreamDestroy(stream);
  cudaFree(device);
}

TEST(SimStreams, PageableIsSlowerThanPinnedAndD2HToPageableIsSynchronous) {
  SimMachine machine({{"H2D_SIM_D2H_GBPS", "1"}, {"H2D_SIM_PAGEABLE_FACTOR", "0.5"}});
  void* device = nullptr;
  ASSERT_EQ(cudaMalloc(&device, 4 * kMiB), cudaSuccess);
  ASSERT_EQ(cudaMemset(device, 9, 4 * kMiB), cudaSuccess);
  std::vector<unsigned char> pageable(4 * kMiB, 0);
  const auto start = std::chrono::steady_clock::now();
  ASSERT_EQ(cudaMemcpyAsync(pageable.data(), device, 4 * kMiB, cudaMemcpyDeviceToHost, nullptr),
            cudaSuccess);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(pageable.back(), 9) << "D2H to pageable memory returns when done";
  EXPECT_GE(seconds, 4.0 * kMiB / 0.5e9 * 0.95);  // at half the 1 GB/s pinned rate
  cudaFree(device);
}

TEST(SimStreams, ImplicitSynchronizationHoldsPinnedAllocationBehindALatch) {
  SimMachine machine({});
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
  std::atomic<bool> release{false};
  hold(stream, release);
  std::atomic<bool> allocated{false};
  void* host = nullptr;
  std::thread allocator([&] {
    EXPECT_EQ(cudaMallocHost(&host, 4096), cudaSuccess);
    allocated = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_FALSE(allocated) << "page-locked allocation serializes against all work";
  release = true;
  allocator.join();
  EXPECT_EQ(cudaFreeHost(host), cudaSuccess);
  cudaStreamDestroy(stream);
}

TEST(SimStreams, StreamWaitEventOrdersAcrossStreams) {
  SimMachine machine({});
  cudaStream_t first = nullptr, second = nullptr;
  cudaEvent_t event = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&first, cudaStreamNonBlocking), cudaSuccess);
  ASSERT_EQ(cudaStreamCreateWithFlags(&second, cudaStreamNonBlocking), cudaSuccess);
  ASSERT_EQ(cudaEventCreateWithFlags(&event, cudaEventDisableTiming), cudaSuccess);
  std::atomic<bool> release{false};
  hold(first, release);
  ASSERT_EQ(cudaEventRecord(event, first), cudaSuccess);
  ASSERT_EQ(cudaStreamWaitEvent(second, event, 0), cudaSuccess);
  std::atomic<bool> ran{false};
  ASSERT_EQ(enqueue_kernel(second, "after", [&] { ran = true; }), cudaSuccess);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(ran);
  EXPECT_EQ(cudaEventQuery(event), cudaErrorNotReady);
  release = true;
  ASSERT_EQ(cudaStreamSynchronize(second), cudaSuccess);
  EXPECT_TRUE(ran);
  float ms = 0;
  EXPECT_EQ(cudaEventElapsedTime(&ms, event, event), cudaErrorInvalidResourceHandle);
  cudaEventDestroy(event);
  cudaStreamDestroy(first);
  cudaStreamDestroy(second);
}

TEST(SimStreams, LaunchBlockingMakesLaunchesAndCopiesSynchronous) {
  SimMachine machine({{"CUDA_LAUNCH_BLOCKING", "1"}});
  std::atomic<bool> ran{false};
  ASSERT_EQ(enqueue_kernel(nullptr, "k", [&] { ran = true; }), cudaSuccess);
  EXPECT_TRUE(ran);
}

TEST(SimStreams, RecordsActivitiesWithCorrelation) {
  SimMachine machine({});
  void* device = nullptr;
  void* host = nullptr;
  ASSERT_EQ(cudaMalloc(&device, kMiB), cudaSuccess);
  ASSERT_EQ(cudaMallocHost(&host, kMiB), cudaSuccess);
  take_activities();
  set_activity_recording(true);
  ASSERT_EQ(cudaMemcpyAsync(device, host, kMiB, cudaMemcpyHostToDevice, nullptr), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  set_activity_recording(false);
  const auto activities = take_activities();
  const Activity* copy = nullptr;
  const Activity* call = nullptr;
  for (const Activity& a : activities) {
    if (a.type == ActivityType::memcpy)
      copy = &a;
    if (a.type == ActivityType::runtime_call && a.name == "cudaMemcpyAsync")
      call = &a;
  }
  ASSERT_NE(copy, nullptr);
  ASSERT_NE(call, nullptr);
  EXPECT_EQ(copy->correlation_id, call->correlation_id);
  EXPECT_EQ(copy->copy_kind, 1);
  EXPECT_EQ(copy->source, HostMemory::pinned);
  EXPECT_EQ(copy->destination, HostMemory::device);
  EXPECT_EQ(copy->bytes, kMiB);
  EXPECT_EQ(copy->stream_id, 1u);
  EXPECT_GT(copy->end_ns, copy->start_ns);
  cudaFree(device);
  cudaFreeHost(host);
}

}  // namespace
}  // namespace h2d::sim
