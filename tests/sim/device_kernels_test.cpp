// The kernels of kernels/, compiled by g++ through the sim's device language, compute what
// harness/core/pattern.hpp computes on the host; the latch holds its stream until released or timed
// out.

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

#include "harness/core/pattern.hpp"
#include "harness/host/normalize_params.hpp"
#include "kernels/checksum.cuh"
#include "kernels/fill.cuh"
#include "kernels/latch.cuh"
#include "kernels/normalize.cuh"
#include "kernels/segment_checksum.cuh"
#include "kernels/zero_copy_read.cuh"
#include "tests/sim/device_test_support.hpp"

namespace {

using h2d_sim_test::DeviceArray;

constexpr std::uint64_t kSeed = 0x5eed;

// The host's side of the pattern, written out from harness/core/pattern.hpp.
std::vector<unsigned char> host_pattern(std::size_t bytes, std::uint64_t seed) {
  std::vector<unsigned char> data(bytes);
  for (std::size_t i = 0; i < bytes; ++i) {
    data[i] = static_cast<unsigned char>(h2d::pattern_word(seed, i / 8) >> (8 * (i % 8)));
  }
  return data;
}

std::uint64_t host_sum(const unsigned char* data, std::size_t bytes) {
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < h2d::word_count(bytes); ++i) {
    sum += h2d::checksum_term(h2d::load_word(data, bytes, i), i);
  }
  return sum;
}

TEST(SimDeviceKernels, FillWritesTheHostPatternAndChecksumsAgree) {
  for (const std::size_t bytes : {std::size_t{1}, std::size_t{7}, std::size_t{8}, std::size_t{1000},
                                  (std::size_t{1} << 20) + 3, std::size_t{24} << 20}) {
    const DeviceArray<unsigned char> data(bytes);
    const DeviceArray<unsigned long long> sum(1);
    ASSERT_EQ(h2d::kernels::launch_fill_pattern(data.get(), bytes, kSeed, nullptr), cudaSuccess);
    ASSERT_EQ(h2d::kernels::launch_checksum(data.get(), bytes, sum.get(), nullptr), cudaSuccess);
    const std::vector<unsigned char> expected = host_pattern(bytes, kSeed);
    ASSERT_EQ(data.read(), expected) << bytes << " bytes";
    EXPECT_EQ(sum.read()[0], host_sum(expected.data(), bytes)) << bytes << " bytes";
  }
}

TEST(SimDeviceKernels, ZeroCopyReadAgreesAlignedAndNot) {
  constexpr std::size_t kBytes = (std::size_t{3} << 20) + 5;
  const std::vector<unsigned char> pattern = host_pattern(kBytes + 1, kSeed);
  const DeviceArray<unsigned char> data(pattern);
  for (const std::size_t offset : {std::size_t{0}, std::size_t{1}}) {
    const DeviceArray<unsigned long long> sum(1);
    ASSERT_EQ(h2d::kernels::launch_read_checksum(data.get() + offset, kBytes, sum.get(), nullptr),
              cudaSuccess);
    EXPECT_EQ(sum.read()[0], host_sum(pattern.data() + offset, kBytes)) << "offset " << offset;
  }
}

TEST(SimDeviceKernels, SegmentChecksumsAreEachSegmentsChecksum) {
  constexpr std::size_t kSegmentBytes = 100'003;
  constexpr unsigned kSegments = 5;
  const std::vector<unsigned char> pattern = host_pattern(kSegmentBytes * kSegments, kSeed);
  const DeviceArray<unsigned char> data(pattern);
  const DeviceArray<unsigned long long> sums(kSegments);
  ASSERT_EQ(h2d::kernels::launch_segment_checksums(data.get(), kSegmentBytes, kSegments, sums.get(),
                                                   nullptr),
            cudaSuccess);
  const std::vector<unsigned long long> got = sums.read();
  for (unsigned s = 0; s < kSegments; ++s) {
    EXPECT_EQ(got[s], host_sum(pattern.data() + s * kSegmentBytes, kSegmentBytes)) << s;
  }
}

TEST(SimDeviceKernels, NormalizeWritesPlanesOfTheFormula) {
  constexpr std::size_t kSamples = 2, kHeight = 17, kWidth = 31, kChannels = 3;
  std::vector<unsigned char> pixels(kSamples * kHeight * kWidth * kChannels);
  for (std::size_t i = 0; i < pixels.size(); ++i) {
    pixels[i] = static_cast<unsigned char>(i * 37);
  }
  h2d::NormalizeParams params;
  params.channels = kChannels;
  for (std::size_t c = 0; c < kChannels; ++c) {
    params.scale[c] = 0.01f * static_cast<float>(c + 1);
    params.bias[c] = -0.5f * static_cast<float>(c);
  }
  const DeviceArray<unsigned char> hwc(pixels);
  const DeviceArray<float> chw(pixels.size());
  ASSERT_EQ(h2d::kernels::launch_normalize(hwc.get(), chw.get(), kSamples, kHeight, kWidth, params,
                                           nullptr),
            cudaSuccess);
  const std::vector<float> got = chw.read();
  const std::size_t plane = kHeight * kWidth;
  for (std::size_t n = 0; n < kSamples; ++n) {
    for (std::size_t p = 0; p < plane; ++p) {
      for (std::size_t c = 0; c < kChannels; ++c) {
        ASSERT_EQ(got[(n * kChannels + c) * plane + p],
                  h2d::normalize_value(pixels[(n * plane + p) * kChannels + c], params.scale[c],
                                       params.bias[c]));
      }
    }
  }
}

// The latch spins on mapped host memory; the host writes the release flag from another thread
// (under a synchronous runtime the launch itself would wait for it).
TEST(SimDeviceKernels, LatchReleasesWhenTheHostWrites) {
  int* flags = nullptr;
  ASSERT_EQ(cudaHostAlloc(reinterpret_cast<void**>(&flags), 2 * sizeof(int), cudaHostAllocMapped),
            cudaSuccess);
  flags[0] = flags[1] = 0;
  int* device_flags = nullptr;
  ASSERT_EQ(cudaHostGetDevicePointer(reinterpret_cast<void**>(&device_flags), flags, 0),
            cudaSuccess);
  const auto start = std::chrono::steady_clock::now();
  std::thread releaser([flags] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    __atomic_store_n(&flags[0], 1, __ATOMIC_SEQ_CST);
  });
  ASSERT_EQ(h2d::kernels::launch_latch(device_flags, device_flags + 1, 20'000'000'000ull, nullptr),
            cudaSuccess);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  releaser.join();
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(__atomic_load_n(&flags[1], __ATOMIC_SEQ_CST), 0) << "released, not timed out";
  EXPECT_GE(elapsed, std::chrono::milliseconds(50));
  EXPECT_LT(elapsed, std::chrono::seconds(10));
  EXPECT_EQ(cudaFreeHost(flags), cudaSuccess);
}

TEST(SimDeviceKernels, LatchTimesOutAndSaysSo) {
  int* flags = nullptr;
  ASSERT_EQ(cudaHostAlloc(reinterpret_cast<void**>(&flags), 2 * sizeof(int), cudaHostAllocMapped),
            cudaSuccess);
  flags[0] = flags[1] = 0;
  int* device_flags = nullptr;
  ASSERT_EQ(cudaHostGetDevicePointer(reinterpret_cast<void**>(&device_flags), flags, 0),
            cudaSuccess);
  const auto start = std::chrono::steady_clock::now();
  ASSERT_EQ(h2d::kernels::launch_latch(device_flags, device_flags + 1, 80'000'000ull, nullptr),
            cudaSuccess);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(80));
  EXPECT_EQ(__atomic_load_n(&flags[1], __ATOMIC_SEQ_CST), 1);
  EXPECT_EQ(cudaFreeHost(flags), cudaSuccess);
}

// A held latch holds only its own stream: a kernel on another stream runs to the end meanwhile.
TEST(SimDeviceKernels, LatchHoldsOnlyItsStream) {
  int* flags = nullptr;
  ASSERT_EQ(cudaHostAlloc(reinterpret_cast<void**>(&flags), 2 * sizeof(int), cudaHostAllocMapped),
            cudaSuccess);
  flags[0] = flags[1] = 0;
  int* device_flags = nullptr;
  ASSERT_EQ(cudaHostGetDevicePointer(reinterpret_cast<void**>(&device_flags), flags, 0),
            cudaSuccess);
  cudaStream_t held = nullptr, other = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&held, cudaStreamNonBlocking), cudaSuccess);
  ASSERT_EQ(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking), cudaSuccess);
  ASSERT_EQ(h2d::kernels::launch_latch(device_flags, device_flags + 1, 20'000'000'000ull, held),
            cudaSuccess);
  const std::vector<unsigned char> pattern = host_pattern(1 << 20, kSeed);
  const DeviceArray<unsigned char> data(pattern);
  const DeviceArray<unsigned long long> sum(1);
  ASSERT_EQ(h2d::kernels::launch_checksum(data.get(), pattern.size(), sum.get(), other),
            cudaSuccess);
  EXPECT_EQ(cudaStreamSynchronize(other), cudaSuccess);
  EXPECT_EQ(cudaStreamQuery(held), cudaErrorNotReady) << "the latch still holds its stream";
  __atomic_store_n(&flags[0], 1, __ATOMIC_SEQ_CST);
  EXPECT_EQ(cudaStreamSynchronize(held), cudaSuccess);
  EXPECT_EQ(__atomic_load_n(&flags[1], __ATOMIC_SEQ_CST), 0);
  unsigned long long got = 0;
  EXPECT_EQ(cudaMemcpy(&got, sum.get(), sizeof(got), cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(got, host_sum(pattern.data(), pattern.size()));
  cudaStreamDestroy(held);
  cudaStreamDestroy(other);
  EXPECT_EQ(cudaFreeHost(flags), cudaSuccess);
}

}  // namespace
