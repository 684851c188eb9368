// The sim's device language: warp shuffles and barriers meet the lanes at the same call.

#include "sim/device/device_language.hpp"  // first: these tests define kernels

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include "kernels/launch.cuh"
#include "tests/sim/device_test_support.hpp"

namespace {

using h2d_sim_test::DeviceArray;

__global__ void shuffle_down_once(const std::uint64_t* in, std::uint64_t* out, unsigned delta,
                                  int width) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = __shfl_down_sync(0xffffffffu, in[t], delta, width);
}

__global__ void warp_reduce(const unsigned* in, unsigned* out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned sum = in[t];
  for (int offset = 16; offset > 0; offset /= 2) {
    sum += __shfl_down_sync(0xffffffffu, sum, offset);
  }
  if (threadIdx.x % 32 == 0) {
    out[t / 32] = sum;
  }
}

// Shuffles within the 8 lanes a partial warp has: what lanes past the block hold is undefined.
__global__ void reduce_eight(const unsigned* in, unsigned* out) {
  unsigned sum = in[threadIdx.x];
  for (int offset = 4; offset > 0; offset /= 2) {
    sum += __shfl_down_sync(0xffffffffu, sum, offset, 8);
  }
  if (threadIdx.x % 8 == 0) {
    out[threadIdx.x / 8] = sum;
  }
}

__global__ void double_reduce(double* out) {
  double value = 0.5 * threadIdx.x;
  for (int offset = 16; offset > 0; offset /= 2) {
    value += __shfl_down_sync(0xffffffffu, value, offset);
  }
  if (threadIdx.x == 0) {
    *out = value;
  }
}

// Each thread reads what its neighbour wrote before the barrier: without one, lanes that run
// first would read zeros.
__global__ void neighbour_after_barrier(unsigned* written, unsigned* read) {
  const unsigned t = threadIdx.x;
  written[t] = t + 1;
  __syncthreads();
  read[t] = written[(t + 1) % blockDim.x];
}

__global__ void neighbour_after_syncwarp(unsigned* written, unsigned* read) {
  const unsigned t = threadIdx.x;
  written[t] = t + 1;
  __syncwarp();
  read[t] = written[t ^ 1u];
}

__global__ void split_barriers() {
  if (threadIdx.x < 16) {
    __syncthreads();
  } else {
    __syncwarp();
  }
}

std::vector<std::uint64_t> iota64(std::size_t count) {
  std::vector<std::uint64_t> values(count);
  for (std::size_t i = 0; i < count; ++i) {
    values[i] = 1000 + i * 0x100000001ull;  // 64-bit values: upper halves must travel too
  }
  return values;
}

TEST(SimDeviceWarp, ShuffleDownReadsTheLaneDeltaAboveWithinItsSegment) {
  constexpr unsigned kBlock = 128;
  constexpr unsigned kGrid = 3;
  const std::vector<std::uint64_t> values = iota64(kBlock * kGrid);
  const DeviceArray<std::uint64_t> in(values);
  for (const auto& [delta, width] : {std::pair{1u, 32}, {5u, 32}, {16u, 32}, {31u, 32}, {3u, 8}}) {
    const DeviceArray<std::uint64_t> out(values.size());
    H2D_LAUNCH(shuffle_down_once, kGrid, kBlock, 0, nullptr)(in.get(), out.get(), delta, width);
    const std::vector<std::uint64_t> got = out.read();
    for (unsigned t = 0; t < values.size(); ++t) {
      const unsigned lane = t % 32;
      const bool inside = lane % width + delta < static_cast<unsigned>(width);
      ASSERT_EQ(got[t], inside ? values[t + delta] : values[t])
          << "thread " << t << " delta " << delta << " width " << width;
    }
  }
}

TEST(SimDeviceWarp, ShuffleReductionSumsEveryWarp) {
  constexpr unsigned kBlock = 256;
  constexpr unsigned kGrid = 5;
  std::vector<unsigned> values(kBlock * kGrid);
  std::iota(values.begin(), values.end(), 7u);
  const DeviceArray<unsigned> in(values);
  const DeviceArray<unsigned> out(values.size() / 32);
  H2D_LAUNCH(warp_reduce, kGrid, kBlock, 0, nullptr)(in.get(), out.get());
  const std::vector<unsigned> sums = out.read();
  for (std::size_t w = 0; w < sums.size(); ++w) {
    EXPECT_EQ(sums[w], std::accumulate(values.begin() + w * 32, values.begin() + w * 32 + 32, 0u))
        << "warp " << w;
  }
}

TEST(SimDeviceWarp, PartialLastWarpReducesItsOwnLanes) {
  constexpr unsigned kBlock = 40;  // a full warp and one of 8 lanes
  std::vector<unsigned> values(kBlock);
  std::iota(values.begin(), values.end(), 1u);
  const DeviceArray<unsigned> in(values);
  const DeviceArray<unsigned> out(kBlock / 8);
  H2D_LAUNCH(reduce_eight, 1, kBlock, 0, nullptr)(in.get(), out.get());
  const std::vector<unsigned> sums = out.read();
  for (unsigned group = 0; group < kBlock / 8; ++group) {
    EXPECT_EQ(sums[group], 8 * (8 * group + 1) + 28) << "lanes " << 8 * group << "..";
  }
}

TEST(SimDeviceWarp, ShufflesMoveDoubles) {
  const DeviceArray<double> out(1);
  H2D_LAUNCH(double_reduce, 1, 32, 0, nullptr)(out.get());
  EXPECT_EQ(out.read()[0], 0.5 * (31 * 32 / 2));
}

TEST(SimDeviceWarp, SyncthreadsWaitsForTheWholeBlock) {
  constexpr unsigned kBlock = 256;
  const DeviceArray<unsigned> written(kBlock);
  const DeviceArray<unsigned> read(kBlock);
  H2D_LAUNCH(neighbour_after_barrier, 1, kBlock, 0, nullptr)(written.get(), read.get());
  const std::vector<unsigned> got = read.read();
  for (unsigned t = 0; t < kBlock; ++t) {
    ASSERT_EQ(got[t], (t + 1) % kBlock + 1) << "thread " << t;
  }
}

TEST(SimDeviceWarp, SyncwarpWaitsForTheWholeWarp) {
  constexpr unsigned kBlock = 64;
  const DeviceArray<unsigned> written(kBlock);
  const DeviceArray<unsigned> read(kBlock);
  H2D_LAUNCH(neighbour_after_syncwarp, 1, kBlock, 0, nullptr)(written.get(), read.get());
  const std::vector<unsigned> got = read.read();
  for (unsigned t = 0; t < kBlock; ++t) {
    ASSERT_EQ(got[t], (t ^ 1u) + 1) << "thread " << t;
  }
}

TEST(SimDeviceWarpDeathTest, LanesAtDifferentBarriersAbortNamingTheKernel) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        H2D_LAUNCH(split_barriers, 1, 32, 0, nullptr)();
        cudaDeviceSynchronize();
      },
      "kernel split_barriers deadlocked");
}

}  // namespace
