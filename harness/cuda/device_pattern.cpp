#include "harness/cuda/device_pattern.hpp"

#include "harness/cuda/cuda_error.hpp"
#include "harness/cuda/device_buffer.hpp"
#include "harness/cuda/scoped_device.hpp"
#include "kernels/checksum.cuh"
#include "kernels/fill.cuh"

namespace h2d {

void device_zero(void* data, std::size_t bytes, const Stream& stream) {
  ScopedDevice on(stream.device());
  H2D_CUDA_CHECK(cudaMemsetAsync(data, 0, bytes, stream.get()));
  stream.synchronize();
}

void device_fill_pattern(void* data, std::size_t bytes, std::uint64_t seed, const Stream& stream) {
  ScopedDevice on(stream.device());
  H2D_CUDA_CHECK(kernels::launch_fill_pattern(data, bytes, seed, stream.get()));
  stream.synchronize();
}

std::uint64_t device_checksum(const void* data, std::size_t bytes, const Stream& stream,
                              ChecksumLauncher launcher) {
  ScopedDevice on(stream.device());
  DeviceBuffer result(stream.device(), sizeof(unsigned long long));
  H2D_CUDA_CHECK(cudaMemsetAsync(result.data(), 0, result.size(), stream.get()));
  H2D_CUDA_CHECK((launcher != nullptr ? launcher : kernels::launch_checksum)(
      data, bytes, reinterpret_cast<unsigned long long*>(result.data()), stream.get()));
  unsigned long long sum = 0;
  H2D_CUDA_CHECK(
      cudaMemcpyAsync(&sum, result.data(), sizeof(sum), cudaMemcpyDeviceToHost, stream.get()));
  stream.synchronize();
  return sum;
}

}  // namespace h2d
