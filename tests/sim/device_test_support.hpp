#pragma once

// Buffers and launches for the device-language tests: they run kernels the way h2dbench does,
// through the CUDA runtime (the sim's, in this build), and read results back after a synchronize.

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

namespace h2d_sim_test {

#define H2D_SIM_EXPECT_CUDA(call) ASSERT_EQ((call), cudaSuccess) << #call

// Device memory holding `count` values of T, zeroed, its contents in place on return: cudaMemset
// and a pageable cudaMemcpy may return before their work lands ("API synchronization behavior"),
// and a kernel on a non-blocking stream does not wait for the legacy stream they ran on, so each
// constructor synchronizes the legacy stream (not the device: a latch may hold another stream).
template <typename T>
class DeviceArray {
 public:
  explicit DeviceArray(std::size_t count) : count_(count) {
    EXPECT_EQ(cudaMalloc(reinterpret_cast<void**>(&data_), bytes()), cudaSuccess);
    EXPECT_EQ(cudaMemset(data_, 0, bytes()), cudaSuccess);
    EXPECT_EQ(cudaStreamSynchronize(nullptr), cudaSuccess);
  }
  explicit DeviceArray(const std::vector<T>& values) : DeviceArray(values.size()) {
    EXPECT_EQ(cudaMemcpy(data_, values.data(), bytes(), cudaMemcpyHostToDevice), cudaSuccess);
    EXPECT_EQ(cudaStreamSynchronize(nullptr), cudaSuccess);
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  ~DeviceArray() { cudaFree(data_); }

  T* get() const { return data_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

  // Waits for the device, then copies the values back.
  std::vector<T> read() const {
    std::vector<T> values(count_);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(values.data(), data_, bytes(), cudaMemcpyDeviceToHost), cudaSuccess);
    return values;
  }

 private:
  std::size_t count_;
  T* data_ = nullptr;
};

}  // namespace h2d_sim_test
