#include "benchmarks/families/memory_managed.hpp"

#include <optional>

#include "harness/core/case_skipped.hpp"
#include "harness/core/checksum.hpp"
#include "harness/core/stopwatch.hpp"
#include "harness/core/verification.hpp"
#include "harness/cuda/copy_samples.hpp"
#include "harness/cuda/copy_timing.hpp"
#include "harness/cuda/device_pattern.hpp"
#include "harness/cuda/host_memory.hpp"
#include "harness/cuda/managed_memory.hpp"
#include "harness/cuda/scoped_device.hpp"
#include "harness/cuda/stream.hpp"
#include "harness/measure/counters.hpp"
#include "harness/measure/measurement_loop.hpp"
#include "harness/trace/nvtx.hpp"

namespace h2d {
namespace {

constexpr std::uint64_t kManagedSeed = 0x4832444D414E4147ull;  // "H2DMANAG"

}  // namespace

void run_managed_case(const ManagedCase& c, benchmark::State& state, const CaseContext& context) {
  ScopedDevice on(c.device);
  if (!concurrent_managed_access(c.device)) {
    throw CaseSkipped(
        "kind=managed: this GPU cannot take prefetches while the host runs "
        "(cudaDevAttrConcurrentManagedAccess is 0: Windows, or a GPU before Pascal)");
  }
  std::optional<NvtxRange> setup(std::in_place, NvtxCategory::setup, "allocate and fill");
  const ManagedBuffer managed(c.bytes);
  fill_pattern(managed.data(), c.bytes, kManagedSeed);  // host-touched, as a loader fills it
  const Stream stream(c.device);
  setup.reset();

  CopySamples samples(c.bytes, 1);
  MeasurementLoop loop(state, context.stopping_rule);
  for (auto _ : loop) {
    managed.prefetch_to_host(stream.get());  // back where the loader wrote it, untimed
    stream.synchronize();
    NvtxRange range(NvtxCategory::copy, "prefetch managed to the device", c.bytes);
    CopyTiming timing;
    const Stopwatch watch;
    managed.prefetch_to_device(c.device, stream.get());
    timing.host_block_seconds = watch.seconds();
    stream.synchronize();
    timing.seconds = watch.seconds();
    loop.record(timing.seconds);
    samples.add(timing);
  }
  // What the device reads where the last prefetch left it.
  verify_checksum(device_checksum(managed.data(), c.bytes, stream),
                  expected_checksum(c.bytes, kManagedSeed),
                  "the managed buffer read on the device");
  samples.write_counters(state);
  state.SetBytesProcessed(static_cast<std::int64_t>(c.bytes));
  set_counter(state, "host_pinned", actual_kind(managed.data()) == ActualKind::pinned ? 1 : 0);
  set_counter(state, "latched", 0);
}

}  // namespace h2d
