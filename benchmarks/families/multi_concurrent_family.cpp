// multi/h2d_concurrent: the same host-to-device transfer to k GPUs at once, from pinned buffers on
// each GPU's own NUMA node. The aggregate is total bytes over ONE host-clock window in which all
// GPUs copy (not a sum of separate runs, which is what tools that run GPUs one after another
// report); each GPU's own rate comes from its own events. Sets: the first k selected GPUs for
// k = 1..N, each shared-uplink group, one GPU per uplink.

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <optional>
#include <string>
#include <vector>

#include "harness/core/byte_size.hpp"
#include "harness/core/case_name.hpp"
#include "harness/core/checksum.hpp"
#include "harness/core/large_transfer_sizes.hpp"
#include "harness/core/statistics.hpp"
#include "harness/core/verification.hpp"
#include "harness/cuda/copy_samples.hpp"
#include "harness/cuda/device.hpp"
#include "harness/cuda/device_buffer.hpp"
#include "harness/cuda/device_pattern.hpp"
#include "harness/cuda/latch.hpp"
#include "harness/cuda/local_pinned_buffer.hpp"
#include "harness/measure/counters.hpp"
#include "harness/measure/measurement_loop.hpp"
#include "harness/strategy/concurrent_copies.hpp"
#include "harness/suite/case_builder.hpp"
#include "harness/suite/case_skip.hpp"
#include "harness/suite/family.hpp"
#include "harness/suite/run_topology.hpp"
#include "harness/topology/gpu_sets.hpp"
#include "harness/topology/topology.hpp"
#include "harness/trace/nvtx.hpp"

namespace h2d {
namespace {

constexpr std::uint64_t kMultiConcurrentSeed = 0x4D554C5449434F4Eull;  // "MULTICON"

struct ConcurrentCase {
  std::vector<int> devices;
  std::size_t bytes = 0;
};

// Everything one GPU needs: its NUMA-local source, its destination, a stream to check it with.
struct GpuSide {
  GpuSide(int ordinal, std::size_t bytes, int numa_node)
      : device(ordinal), host(bytes, numa_node), buffer(ordinal, bytes), stream(ordinal) {}
  int device;
  LocalPinnedBuffer host;
  DeviceBuffer buffer;
  Stream stream;
};

void run_concurrent_case(const ConcurrentCase& c, benchmark::State& state,
                         const CaseContext& context) {
  const Topology& topology = run_topology();
  const int copies = copies_per_concurrent_window(c.bytes);
  std::optional<NvtxRange> setup(std::in_place, NvtxCategory::setup, "allocate, place and fill");
  std::vector<std::unique_ptr<GpuSide>> sides;
  bool all_local = true;
  std::vector<ConcurrentLane> lanes;
  for (int device : c.devices) {
    auto side = std::make_unique<GpuSide>(device, c.bytes, topology.numa_node_of(device));
    all_local = all_local && side->host.numa_placed();
    fill_pattern(side->host.data(), c.bytes,
                 kMultiConcurrentSeed + static_cast<std::uint64_t>(device));
    CopyJob job;
    job.destination = side->buffer.data();
    job.source = side->host.data();
    job.bytes = c.bytes;
    job.direction = Direction::h2d;
    job.copies = copies;
    lanes.push_back({device, job});
    sides.push_back(std::move(side));
  }
  ConcurrentCopies rig(lanes, context.latching);
  rig.measure();  // warm-up: the first window on fresh streams and latches is not timed
  for (const auto& side : sides) {
    // Zeros after the warm-up: a copy that never happens in the timed windows fails the check.
    device_zero(side->buffer.data(), c.bytes, side->stream);
  }
  setup.reset();

  const double per_gpu_bytes = static_cast<double>(c.bytes) * copies;
  std::vector<double> aggregate;
  std::vector<double> windows;
  std::vector<std::vector<double>> per_gpu(c.devices.size());
  MeasurementLoop loop(state, context.stopping_rule);
  for (auto _ : loop) {
    const ConcurrentTiming timing = rig.measure();
    loop.record(timing.window_seconds);
    windows.push_back(timing.window_seconds);
    aggregate.push_back(
        gb_per_s(per_gpu_bytes * static_cast<double>(c.devices.size()), timing.window_seconds));
    for (std::size_t i = 0; i < c.devices.size(); ++i) {
      per_gpu[i].push_back(gb_per_s(per_gpu_bytes, timing.lane_seconds[i]));
    }
  }

  {
    NvtxRange verify(NvtxCategory::verify, "checksum");
    for (const auto& side : sides) {
      verify_checksum(device_checksum(side->buffer.data(), c.bytes, side->stream),
                      expected_checksum(
                          c.bytes, kMultiConcurrentSeed + static_cast<std::uint64_t>(side->device)),
                      fmt::format("data that arrived on GPU {}", side->device));
    }
  }
  if (aggregate.empty()) {
    return;
  }
  const SampleStats rate = summarize(aggregate);
  set_counter(state, "GB_per_s", rate.median);  // all GPUs together, one host-clock window
  set_counter(state, "cv_pct", rate.cv * 100);
  set_counter(state, "window_us", summarize(windows).median * 1e6);
  double sum_of_gpus = 0;
  for (std::size_t i = 0; i < c.devices.size(); ++i) {
    const double median = summarize(per_gpu[i]).median;
    set_counter(state, fmt::format("gpu{}_GB_per_s", c.devices[i]), median);
    sum_of_gpus += median;
  }
  // What a tool that adds up per-GPU rates would claim; above GB_per_s when the GPUs did not all
  // copy for the whole window.
  set_counter(state, "sum_gpu_GB_per_s", sum_of_gpus);
  set_counter(state, "bytes", static_cast<double>(c.bytes));
  set_counter(state, "copies_per_measurement", copies);
  set_counter(state, "numa_local", all_local ? 1 : 0);
  set_counter(state, "warmup_windows", static_cast<double>(rig.windows() - aggregate.size()));
  set_counter(state, "latched", context.latching == Latching::on ? 1 : 0);
  state.SetBytesProcessed(copies * static_cast<std::int64_t>(c.bytes) *
                          static_cast<std::int64_t>(c.devices.size()));
}

std::vector<BenchmarkCase> concurrent_cases(const RunPlan& plan) {
  std::vector<int> selected;
  for (const DeviceInfo& gpu : plan.devices) {
    selected.push_back(gpu.ordinal);
  }
  std::vector<BenchmarkCase> cases;
  for (const GpuSet& set : concurrent_gpu_sets(run_topology(), selected)) {
    const std::size_t k = set.ordinals.size();
    // quick: one GPU, all of them, and the topology's own sets; the prefixes between are for
    // the scaling curve of the default and full presets.
    if (plan.preset == Preset::quick && set.kind == "first" && k != 1 && k != selected.size()) {
      continue;
    }
    for (std::size_t bytes : large_transfer_sizes(plan.preset)) {
      const CaseName name = CaseName(declared_family("multi/h2d_concurrent"))
                                .add("gpus", ordinal_list(set.ordinals))
                                .add("set", set.kind)
                                .add_bytes("bytes", bytes);
      cases.push_back(make_case(name, {{"k", static_cast<double>(k)}}, run_concurrent_case,
                                ConcurrentCase{set.ordinals, bytes}));
    }
  }
  if (selected.size() < 2) {
    cases.push_back(skipped_case(
        "multi/h2d_concurrent/gpus=several",
        fmt::format("needs 2 or more selected GPUs; {} selected of {} CUDA sees (--devices all "
                    "selects every one)",
                    selected.size(), discover_devices().devices.size())));
  }
  return cases;
}

[[maybe_unused]] const bool multi_concurrent_registered = register_family({
    "multi/h2d_concurrent",
    "the same H2D copy to k GPUs at once from NUMA-local pinned memory: true aggregate GB/s",
    /*needs_gpu=*/true,
    concurrent_cases,
});

}  // namespace
}  // namespace h2d
