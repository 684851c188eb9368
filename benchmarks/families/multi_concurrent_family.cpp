// multi/h2d_concurrent: the same host-to-device transfer to k GPUs at once, from pinned buffers on
// each GPU's own NUMA node. The aggregate is total bytes over ONE host-clock window in which all
// GPUs copy (not a sum of separate runs, which is what tools that run GPUs one after another
// report); each GPU's own rate comes from its own events. Sets: the first k selected GPUs for
// k = 1..N, each shared-uplink group, one GPU per uplink. dir=both: each GPU copies back to its
// host at the same time, in the same window.

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <cstring>
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
  // dir=both: every GPU also copies as many bytes back to its host at the same time, each
  // direction on its own stream (nvbandwidth's all-to-host bidirectional, all in one window)
  bool both_directions = false;
};

// Everything one GPU needs: its NUMA-local source, its destination, a stream to check it with;
// with both directions, a device source and a NUMA-local destination for the copies back.
struct GpuSide {
  GpuSide(int ordinal, std::size_t bytes, int numa_node, bool both_directions)
      : device(ordinal), host(bytes, numa_node), buffer(ordinal, bytes), stream(ordinal) {
    if (both_directions) {
      back_host.emplace(bytes, numa_node);
      back_device.emplace(ordinal, bytes);
    }
  }
  int device;
  LocalPinnedBuffer host;
  DeviceBuffer buffer;
  Stream stream;
  std::optional<LocalPinnedBuffer> back_host;
  std::optional<DeviceBuffer> back_device;
};

std::uint64_t seed_of(int device, Direction direction) {
  return kMultiConcurrentSeed + static_cast<std::uint64_t>(device) +
         (direction == Direction::d2h ? 0x100 : 0);
}

void run_concurrent_case(const ConcurrentCase& c, benchmark::State& state,
                         const CaseContext& context) {
  const Topology& topology = run_topology();
  const int copies = copies_per_concurrent_window(c.bytes);
  std::optional<NvtxRange> setup(std::in_place, NvtxCategory::setup, "allocate, place and fill");
  std::vector<std::unique_ptr<GpuSide>> sides;
  bool all_local = true;
  std::vector<ConcurrentLane> lanes;
  for (int device : c.devices) {
    auto side = std::make_unique<GpuSide>(device, c.bytes, topology.numa_node_of(device),
                                          c.both_directions);
    all_local = all_local && side->host.numa_placed();
    fill_pattern(side->host.data(), c.bytes, seed_of(device, Direction::h2d));
    lanes.push_back(
        {device, CopyJob{side->buffer.data(), side->host.data(), c.bytes, Direction::h2d, copies}});
    if (c.both_directions) {  // the lane back, started with the others by the same release
      device_fill_pattern(side->back_device->data(), c.bytes, seed_of(device, Direction::d2h),
                          side->stream);
      lanes.push_back({device, CopyJob{side->back_host->data(), side->back_device->data(), c.bytes,
                                       Direction::d2h, copies}});
    }
    sides.push_back(std::move(side));
  }
  ConcurrentCopies rig(lanes, context.latching);
  rig.measure();  // warm-up: the first window on fresh streams and latches is not timed
  for (const auto& side : sides) {
    // Zeros after the warm-up: a copy that never happens in the timed windows fails the check.
    device_zero(side->buffer.data(), c.bytes, side->stream);
    if (side->back_host) {
      std::memset(side->back_host->data(), 0, c.bytes);
    }
  }
  setup.reset();

  const double per_lane_bytes = static_cast<double>(c.bytes) * copies;
  std::vector<double> aggregate;
  std::vector<double> windows;
  std::vector<std::vector<double>> per_lane(lanes.size());
  MeasurementLoop loop(state, context.stopping_rule);
  for (auto _ : loop) {
    const ConcurrentTiming timing = rig.measure();
    loop.record(timing.window_seconds);
    windows.push_back(timing.window_seconds);
    aggregate.push_back(
        gb_per_s(per_lane_bytes * static_cast<double>(lanes.size()), timing.window_seconds));
    for (std::size_t i = 0; i < lanes.size(); ++i) {
      per_lane[i].push_back(gb_per_s(per_lane_bytes, timing.lane_seconds[i]));
    }
  }

  {
    NvtxRange verify(NvtxCategory::verify, "checksum");
    for (const auto& side : sides) {
      verify_checksum(device_checksum(side->buffer.data(), c.bytes, side->stream),
                      expected_checksum(c.bytes, seed_of(side->device, Direction::h2d)),
                      fmt::format("data that arrived on GPU {}", side->device));
      if (side->back_host) {
        verify_checksum(host_checksum(side->back_host->data(), c.bytes),
                        expected_checksum(c.bytes, seed_of(side->device, Direction::d2h)),
                        fmt::format("data that came back from GPU {}", side->device));
      }
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
  for (std::size_t i = 0; i < lanes.size(); ++i) {
    const double median = summarize(per_lane[i]).median;
    const bool back = lanes[i].job.direction == Direction::d2h;
    set_counter(state, fmt::format(back ? "gpu{}_d2h_GB_per_s" : "gpu{}_GB_per_s", lanes[i].device),
                median);
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
                          static_cast<std::int64_t>(lanes.size()));
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
    const std::vector<std::size_t> sizes = large_transfer_sizes(plan.preset);
    for (std::size_t bytes : sizes) {
      cases.push_back(make_case(CaseName(declared_family("multi/h2d_concurrent"))
                                    .add("gpus", ordinal_list(set.ordinals))
                                    .add("set", set.kind)
                                    .add_bytes("bytes", bytes),
                                {{"k", static_cast<double>(k)}}, run_concurrent_case,
                                ConcurrentCase{set.ordinals, bytes, false}));
    }
    // dir=both at the largest size: every set, but in quick only all the GPUs at once.
    if (plan.preset != Preset::quick || (k >= 2 && k == selected.size())) {
      cases.push_back(make_case(CaseName(declared_family("multi/h2d_concurrent"))
                                    .add("gpus", ordinal_list(set.ordinals))
                                    .add("set", set.kind)
                                    .add("dir", "both")
                                    .add_bytes("bytes", sizes.back()),
                                {{"k", static_cast<double>(k)}}, run_concurrent_case,
                                ConcurrentCase{set.ordinals, sizes.back(), true}));
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
