// The sim's grids: every thread of every block runs once with its own indices, however many
// blocks there are, and a launch copies its arguments when it is made.

#include "sim/device/device_language.hpp"  // first: these tests define kernels

#include <gtest/gtest.h>

#include <vector>

#include "kernels/launch.cuh"
#include "tests/sim/device_test_support.hpp"

namespace {

using h2d_sim_test::DeviceArray;

struct Seen {
  unsigned count;
  uint3 thread, block;
  dim3 block_dim, grid_dim;
};

__global__ void record_indices(Seen* seen) {
  const unsigned block = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  const unsigned thread = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  Seen& mine = seen[block * blockDim.x * blockDim.y * blockDim.z + thread];
  atomicAdd(&mine.count, 1u);
  mine.thread = threadIdx;
  mine.block = blockIdx;
  mine.block_dim = blockDim;
  mine.grid_dim = gridDim;
}

__global__ void grid_stride_count(unsigned* counts, std::size_t n) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    atomicAdd(&counts[i], 1u);
  }
}

__global__ void store_value(std::uint64_t value, std::uint64_t* out) {
  *out = value;
}

TEST(SimDeviceGrid, EveryThreadOfA3dGridRunsOnceWithItsIndices) {
  const dim3 grid(3, 2, 2);
  const dim3 block(8, 4, 2);
  const unsigned per_block = block.x * block.y * block.z;
  const DeviceArray<Seen> seen(grid.x * grid.y * grid.z * per_block);
  H2D_LAUNCH(record_indices, grid, block, 0, nullptr)(seen.get());
  const std::vector<Seen> got = seen.read();
  for (std::size_t i = 0; i < got.size(); ++i) {
    const Seen& s = got[i];
    ASSERT_EQ(s.count, 1u) << "thread slot " << i;
    const std::size_t b = i / per_block;
    const std::size_t t = i % per_block;
    EXPECT_EQ(s.block.x, b % grid.x);
    EXPECT_EQ(s.block.y, b / grid.x % grid.y);
    EXPECT_EQ(s.block.z, b / (grid.x * grid.y));
    EXPECT_EQ(s.thread.x, t % block.x);
    EXPECT_EQ(s.thread.y, t / block.x % block.y);
    EXPECT_EQ(s.thread.z, t / (block.x * block.y));
    EXPECT_EQ(s.block_dim.x * s.block_dim.y * s.block_dim.z, per_block);
    EXPECT_EQ(s.grid_dim.x, grid.x);
    EXPECT_EQ(s.grid_dim.z, grid.z);
  }
}

TEST(SimDeviceGrid, GridStrideLoopsCoverEveryElementOnce) {
  // More blocks than are resident at once, blocks that are not a multiple of a warp, and a grid
  // of one block: each element is counted exactly once.
  constexpr std::size_t kElements = 100003;
  for (const auto& [blocks, threads] :
       {std::pair{37u, 96u}, {4096u, 256u}, {1u, 1024u}, {5u, 33u}}) {
    const DeviceArray<unsigned> counts(kElements);
    H2D_LAUNCH(grid_stride_count, blocks, threads, 0, nullptr)(counts.get(), kElements);
    const std::vector<unsigned> got = counts.read();
    for (std::size_t i = 0; i < kElements; ++i) {
      ASSERT_EQ(got[i], 1u) << "element " << i << " with " << blocks << " x " << threads;
    }
  }
}

TEST(SimDeviceGrid, ArgumentsAreCopiedAtTheLaunch) {
  const DeviceArray<std::uint64_t> out(1);
  std::uint64_t value = 42;
  H2D_LAUNCH(store_value, 1, 1, 0, nullptr)(value, out.get());
  value = 7;  // after the launch: the kernel already has its copy
  EXPECT_EQ(out.read()[0], 42u);
  EXPECT_EQ(value, 7u);
}

}  // namespace
