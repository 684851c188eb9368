// h2d/zero_copy: small transfers (tile ids, the small members of a batch tuple) read by a kernel
// straight from mapped pinned host memory, against an explicit copy to device memory followed by
// the same kernel. For a few bytes zero-copy saves a copy's fixed cost; for large buffers every
// read crosses the bus and the explicit copy wins. Both paths are GPU-timed behind a latch.

#include <cuda_runtime_api.h>

#include <optional>
#include <string>
#include <vector>

#include "harness/core/case_name.hpp"
#include "harness/core/checksum.hpp"
#include "harness/core/verification.hpp"
#include "harness/cuda/copy_samples.hpp"
#include "harness/cuda/copy_timing.hpp"
#include "harness/cuda/cuda_error.hpp"
#include "harness/cuda/device_buffer.hpp"
#include "harness/cuda/host_memory.hpp"
#include "harness/cuda/latched_streams.hpp"
#include "harness/cuda/scoped_device.hpp"
#include "harness/measure/measurement_loop.hpp"
#include "harness/strategy/strategy_grids.hpp"
#include "harness/suite/case_builder.hpp"
#include "harness/suite/family.hpp"
#include "harness/trace/nvtx.hpp"
#include "kernels/zero_copy_read.cuh"

namespace h2d {
namespace {

constexpr std::uint64_t kZeroCopySeed = 0x483244305A45524Full;  // "H2D0ZERO"

struct ZeroCopyCase {
  int device = 0;
  bool mapped = true;  // false: explicit copy into device memory, then the kernel
  std::size_t bytes = 0;
};

void run_zero_copy_case(const ZeroCopyCase& c, benchmark::State& state,
                        const CaseContext& context) {
  ScopedDevice on(c.device);
  std::optional<NvtxRange> setup(std::in_place, NvtxCategory::setup, "allocate and fill");
  // Both page-locked, so both paths are async and can be latched.
  HostBuffer host(c.mapped ? HostKind::mapped : HostKind::pinned, c.bytes);
  fill_pattern(host.data(), c.bytes, kZeroCopySeed);
  std::optional<DeviceBuffer> device;
  const void* read_from = nullptr;
  if (c.mapped) {
    read_from = host.device_pointer();
  } else {
    device.emplace(c.device, c.bytes);
    read_from = device->data();
  }
  DeviceBuffer result(c.device, sizeof(unsigned long long));
  auto* sum = reinterpret_cast<unsigned long long*>(result.data());
  LatchedStreams lane(c.device, 1, context.latching);
  const cudaStream_t stream = lane[0].get();
  const int reads = copies_per_measurement(c.bytes);
  const std::uint64_t expected = expected_checksum(c.bytes, kZeroCopySeed);

  // One measurement: `reads` times (copy, then) read-and-sum; every read adds the checksum, so
  // the total must be reads * checksum (mod 2^64). Zeroing and checking stay outside the window.
  const auto measure = [&] {
    H2D_CUDA_CHECK(cudaMemsetAsync(result.data(), 0, result.size(), stream));
    if (device) {
      H2D_CUDA_CHECK(cudaMemsetAsync(device->data(), 0, c.bytes, stream));
    }
    lane[0].synchronize();
    const CopyTiming timing = lane.time([&] {
      for (int i = 0; i < reads; ++i) {
        if (device) {
          H2D_CUDA_CHECK(cudaMemcpyAsync(device->data(), host.data(), c.bytes,
                                         cudaMemcpyHostToDevice, stream));
        }
        H2D_CUDA_CHECK(kernels::launch_read_checksum(read_from, c.bytes, sum, stream));
      }
    });
    unsigned long long total = 0;
    H2D_CUDA_CHECK(cudaMemcpyAsync(&total, sum, sizeof(total), cudaMemcpyDeviceToHost, stream));
    lane[0].synchronize();
    NvtxRange verify(NvtxCategory::verify, "sum of checksums");
    verify_checksum(total, expected * static_cast<std::uint64_t>(reads),
                    c.mapped ? "data read through the mapping" : "data copied, then read");
    return timing;
  };
  measure();  // warm-up
  setup.reset();

  CopySamples samples(c.bytes, reads);
  MeasurementLoop loop(state, context.stopping_rule);
  for (auto _ : loop) {
    const CopyTiming timing = measure();
    loop.record(timing.seconds);
    samples.add(timing);
  }
  samples.write_counters(state);
}

std::vector<BenchmarkCase> zero_copy_cases(const RunPlan& plan) {
  std::vector<BenchmarkCase> cases;
  for (const DeviceInfo& gpu : plan.devices) {
    for (bool mapped : {true, false}) {
      if (mapped && !gpu.can_map_host_memory) {
        continue;  // the device cannot address host memory: no zero-copy to measure
      }
      for (std::size_t bytes : zero_copy_sizes(plan.preset)) {
        const CaseName name = case_name_on("h2d/zero_copy", plan, gpu)
                                  .add("path", mapped ? "mapped" : "copy")
                                  .add_bytes("bytes", bytes);
        cases.push_back(make_case(name, {{"gpu", gpu.ordinal}}, run_zero_copy_case,
                                  ZeroCopyCase{gpu.ordinal, mapped, bytes}));
      }
    }
  }
  return cases;
}

[[maybe_unused]] const bool zero_copy_registered = register_family({
    "h2d/zero_copy",
    "a kernel reading mapped pinned memory vs copy-then-read, small sizes (ids, tuple members)",
    /*needs_gpu=*/true,
    zero_copy_cases,
});

}  // namespace
}  // namespace h2d
