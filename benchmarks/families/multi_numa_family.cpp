// multi/numa: the same pinned copy with the host memory on the GPU's own NUMA node and on each
// other node (pages bound with hwloc, then registered with CUDA), where the machine has more than
// one. Remote memory crosses the inter-socket link first; this family measures what that costs
// here.

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <optional>
#include <string>
#include <vector>

#include "harness/core/case_name.hpp"
#include "harness/core/large_transfer_sizes.hpp"
#include "harness/cuda/copy_samples.hpp"
#include "harness/cuda/copy_timing.hpp"
#include "harness/cuda/device_buffer.hpp"
#include "harness/cuda/numa_host_buffer.hpp"
#include "harness/cuda/scoped_device.hpp"
#include "harness/cuda/verified_copy.hpp"
#include "harness/measure/measurement_loop.hpp"
#include "harness/suite/case_builder.hpp"
#include "harness/suite/case_skip.hpp"
#include "harness/suite/family.hpp"
#include "harness/suite/run_topology.hpp"
#include "harness/topology/topology.hpp"
#include "harness/trace/nvtx.hpp"

namespace h2d {
namespace {

constexpr std::uint64_t kMultiNumaSeed = 0x4E554D41504C4143ull;  // "NUMAPLAC"

struct NumaCase {
  int device = 0;
  int memory_node = 0;
  Direction direction = Direction::h2d;
  std::size_t bytes = 0;
};

void run_numa_case(const NumaCase& c, benchmark::State& state, const CaseContext& context) {
  ScopedDevice on(c.device);
  const int copies = copies_per_measurement(c.bytes);
  std::optional<NvtxRange> setup(std::in_place, NvtxCategory::setup,
                                 fmt::format("pinned memory on NUMA node {}", c.memory_node));
  NumaHostBuffer host(c.bytes, c.memory_node);  // CaseSkipped when it cannot be placed there
  DeviceBuffer device(c.device, c.bytes);
  Stream stream(c.device);
  Event start(c.device);
  Event stop(c.device);
  StreamLatch latch(c.device, context.latching);
  const VerifiedCopy copy(host.data(), device.data(), c.bytes, c.direction, copies, kMultiNumaSeed,
                          stream);
  const CopyJob& job = copy.job();
  setup.reset();

  CopySamples samples(c.bytes, copies);
  MeasurementLoop loop(state, context.stopping_rule);
  for (auto _ : loop) {
    const CopyTiming timing = time_latched_async(job, latch, stream, start, stop);
    loop.record(timing.seconds);
    samples.add(timing);
  }
  copy.verify();
  samples.write_counters(state);
  state.SetBytesProcessed(copies * static_cast<std::int64_t>(c.bytes));
}

std::string placement(int gpu_node, int memory_node) {
  if (gpu_node < 0) {
    return "unknown";
  }
  return gpu_node == memory_node ? "local" : "remote";
}

std::vector<BenchmarkCase> numa_cases(const RunPlan& plan) {
  const Topology& topology = run_topology();
  std::vector<int> nodes;
  for (const NumaNodeInfo& numa : topology.numa_nodes) {
    if (numa.memory_bytes > 0) {
      nodes.push_back(numa.os_index);
    }
  }
  if (!topology.this_system) {
    return {skipped_case("multi/numa/node=remote",
                         fmt::format("the topology comes from {} (HWLOC_XMLFILE), not this "
                                     "machine: memory cannot be placed by it",
                                     topology.source))};
  }
  if (nodes.size() < 2) {
    return {skipped_case(
        "multi/numa/node=remote",
        fmt::format("{} NUMA node{} with memory here: no remote memory to compare with",
                    nodes.size(), nodes.size() == 1 ? "" : "s"))};
  }
  std::vector<BenchmarkCase> cases;
  const std::vector<Direction> directions =
      plan.preset == Preset::quick ? std::vector<Direction>{Direction::h2d}
                                   : std::vector<Direction>{Direction::h2d, Direction::d2h};
  for (const DeviceInfo& gpu : plan.devices) {
    const int gpu_node = topology.numa_node_of(gpu.ordinal);
    for (Direction direction : directions) {
      for (int node : nodes) {
        for (std::size_t bytes : large_transfer_sizes(plan.preset)) {
          const CaseName name = CaseName(declared_family("multi/numa"))
                                    .add("gpu", gpu.ordinal)
                                    .add("dir", std::string(to_string(direction)))
                                    .add("node", node)
                                    .add("placement", placement(gpu_node, node))
                                    .add_bytes("bytes", bytes);
          cases.push_back(make_case(name,
                                    {{"gpu", gpu.ordinal},
                                     {"node", node},
                                     {"gpu_node", gpu_node},
                                     {"local", gpu_node < 0 ? -1 : (gpu_node == node ? 1 : 0)}},
                                    run_numa_case, NumaCase{gpu.ordinal, node, direction, bytes}));
        }
      }
    }
  }
  return cases;
}

[[maybe_unused]] const bool multi_numa_registered = register_family({
    "multi/numa",
    "pinned copies from memory on the GPU's own NUMA node vs each other node (2+ nodes only)",
    /*needs_gpu=*/true,
    numa_cases,
});

}  // namespace
}  // namespace h2d
