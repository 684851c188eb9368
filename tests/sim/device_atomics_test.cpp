// The sim's atomicAdd: real atomics, since the kernels of several streams run at once.

#include "sim/device/device_language.hpp"  // first: these tests define kernels

#include <gtest/gtest.h>

#include <algorithm>
#include <thread>
#include <vector>

#include "kernels/launch.cuh"
#include "tests/sim/device_test_support.hpp"

namespace {

using h2d_sim_test::DeviceArray;

constexpr unsigned kAddsPerThread = 16;

__global__ void add_ones(unsigned long long* counter) {
  for (unsigned i = 0; i < kAddsPerThread; ++i) {
    atomicAdd(counter, 1ull);
  }
}

__global__ void take_tickets(unsigned* next, unsigned* tickets) {
  tickets[blockIdx.x * blockDim.x + threadIdx.x] = atomicAdd(next, 1u);
}

__global__ void add_floating(float* single, double* twice) {
  atomicAdd(single, 1.0f);
  atomicAdd(twice, 0.5);
}

TEST(SimDeviceAtomics, GridsOnSeveralThreadsAtOnceLoseNoAdd) {
  // The grids run on threads of their own, as kernels of different streams run on their workers.
  constexpr unsigned kThreads = 4;
  constexpr unsigned kBlocks = 64;
  constexpr unsigned kBlock = 256;
  const DeviceArray<unsigned long long> counter(1);
  unsigned long long* const target = counter.get();
  std::vector<std::thread> threads;
  for (unsigned i = 0; i < kThreads; ++i) {
    threads.emplace_back([target] {
      h2d::sim::run_grid("add_ones", kBlocks, kBlock, [target] { add_ones(target); });
    });
  }
  for (std::thread& thread : threads) {
    thread.join();
  }
  EXPECT_EQ(counter.read()[0],
            static_cast<unsigned long long>(kThreads) * kBlocks * kBlock * kAddsPerThread);
}

TEST(SimDeviceAtomics, KernelsOnConcurrentStreamsLoseNoAdd) {
  constexpr int kStreams = 4;
  const DeviceArray<unsigned long long> counter(1);
  std::vector<cudaStream_t> streams(kStreams);
  for (cudaStream_t& stream : streams) {
    H2D_SIM_EXPECT_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  }
  for (cudaStream_t stream : streams) {
    H2D_LAUNCH(add_ones, 32, 128, 0, stream)(counter.get());
  }
  for (cudaStream_t stream : streams) {
    H2D_SIM_EXPECT_CUDA(cudaStreamSynchronize(stream));
    H2D_SIM_EXPECT_CUDA(cudaStreamDestroy(stream));
  }
  EXPECT_EQ(counter.read()[0], 1ull * kStreams * 32 * 128 * kAddsPerThread);
}

TEST(SimDeviceAtomics, AtomicAddReturnsTheValueBefore) {
  constexpr unsigned kCount = 3 * 96;
  const DeviceArray<unsigned> next(1);
  const DeviceArray<unsigned> tickets(kCount);
  H2D_LAUNCH(take_tickets, 3, 96, 0, nullptr)(next.get(), tickets.get());
  std::vector<unsigned> got = tickets.read();
  std::sort(got.begin(), got.end());
  for (unsigned i = 0; i < kCount; ++i) {
    ASSERT_EQ(got[i], i) << "every ticket once";
  }
  EXPECT_EQ(next.read()[0], kCount);
}

TEST(SimDeviceAtomics, FloatingPointAdds) {
  const DeviceArray<float> single(1);
  const DeviceArray<double> twice(1);
  H2D_LAUNCH(add_floating, 40, 256, 0, nullptr)(single.get(), twice.get());
  EXPECT_EQ(single.read()[0], 40.0f * 256.0f);
  EXPECT_EQ(twice.read()[0], 0.5 * 40 * 256);
}

}  // namespace
