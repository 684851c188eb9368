// h2d/streams: one transfer split into chunks over K streams, alone, with a compute kernel per
// chunk, and with compute and a copy back (three-way overlap). Shows what streams buy: nothing for
// copies alone (one copy engine per direction), a hidden compute phase, and with two or more copy
// engines a hidden D2H as well. overlap_pct compares with the same phases run one after another.

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "harness/core/case_name.hpp"
#include "harness/core/checksum.hpp"
#include "harness/core/measure_by_rule.hpp"
#include "harness/core/overlap.hpp"
#include "harness/core/statistics.hpp"
#include "harness/core/verification.hpp"
#include "harness/cuda/copy_samples.hpp"
#include "harness/cuda/cuda_error.hpp"
#include "harness/cuda/device_buffer.hpp"
#include "harness/cuda/device_pattern.hpp"
#include "harness/cuda/host_memory.hpp"
#include "harness/cuda/latched_streams.hpp"
#include "harness/cuda/scoped_device.hpp"
#include "harness/host/chunk_plan.hpp"
#include "harness/measure/counters.hpp"
#include "harness/measure/measurement_loop.hpp"
#include "harness/strategy/strategy_grids.hpp"
#include "harness/suite/case_builder.hpp"
#include "harness/suite/family.hpp"
#include "harness/trace/nvtx.hpp"
#include "kernels/busy.cuh"

namespace h2d {
namespace {

constexpr std::uint64_t kStreamsSeed = 0x4832445354524D53ull;  // "H2DSTRMS"

enum class Variant { copy, copy_compute, copy_compute_d2h };

std::string variant_name(Variant variant) {
  switch (variant) {
    case Variant::copy:
      return "copy";
    case Variant::copy_compute:
      return "copy_compute";
    case Variant::copy_compute_d2h:
      return "copy_compute_d2h";
  }
  return "unknown";
}

// Which phases a pass queues for every chunk, in stream order.
struct Phases {
  bool copy = false;
  bool compute = false;
  bool d2h = false;
};

struct StreamsCase {
  DeviceInfo gpu;
  Variant variant = Variant::copy;
  std::size_t streams = 1;
  std::size_t bytes = 0;
};

// The buffers and streams of one case, and how to queue a pass over a chunk plan.
struct StreamsRig {
  StreamsRig(const StreamsCase& c, Latching latching)
      : gpu(c.gpu),
        source(HostKind::pinned, c.bytes),
        device(c.gpu.ordinal, c.bytes),
        lanes(c.gpu.ordinal, c.streams, latching) {
    if (c.variant == Variant::copy_compute_d2h) {
      result.emplace(HostKind::pinned, c.bytes);
    }
  }

  // Everything queued is async from pinned memory, kernels and events: safe behind the latch.
  void enqueue(const std::vector<Chunk>& plan, Phases phases, std::uint64_t busy_ns) const {
    for (const Chunk& chunk : plan) {
      const cudaStream_t stream = lanes[chunk.stream].get();
      if (phases.copy) {
        H2D_CUDA_CHECK(cudaMemcpyAsync(device.data() + chunk.offset, source.data() + chunk.offset,
                                       chunk.bytes, cudaMemcpyHostToDevice, stream));
      }
      if (phases.compute) {
        H2D_CUDA_CHECK(
            kernels::launch_busy(busy_ns, static_cast<unsigned>(gpu.multiprocessors), stream));
      }
      if (phases.d2h) {
        H2D_CUDA_CHECK(cudaMemcpyAsync(result->data() + chunk.offset, device.data() + chunk.offset,
                                       chunk.bytes, cudaMemcpyDeviceToHost, stream));
      }
    }
  }

  double time(const std::vector<Chunk>& plan, Phases phases, std::uint64_t busy_ns) {
    return lanes.time([&] { enqueue(plan, phases, busy_ns); }).seconds;
  }

  // Median of passes of one phase alone, every chunk on one stream, as many as the overlapped
  // passes it is compared with (the case's stopping rule).
  double serial_seconds(const std::vector<Chunk>& serial_plan, Phases phases, std::uint64_t busy_ns,
                        const StoppingRule& rule) {
    return summarize(measure_by_rule(rule, [&] { return time(serial_plan, phases, busy_ns); }))
        .median;
  }

  void clear_destinations() const {
    H2D_CUDA_CHECK(cudaMemsetAsync(device.data(), 0, device.size(), lanes[0].get()));
    lanes[0].synchronize();
    if (result) {
      std::memset(result->data(), 0, result->size());
    }
  }

  DeviceInfo gpu;
  HostBuffer source;
  DeviceBuffer device;
  std::optional<HostBuffer> result;
  LatchedStreams lanes;
};

void run_streams_case(const StreamsCase& c, benchmark::State& state, const CaseContext& context) {
  ScopedDevice on(c.gpu.ordinal);
  std::optional<NvtxRange> setup(std::in_place, NvtxCategory::setup, "allocate, fill, calibrate");
  StreamsRig rig(c, context.latching);
  fill_pattern(rig.source.data(), c.bytes, kStreamsSeed);
  const std::vector<Chunk> plan = plan_chunks(c.bytes, kStreamChunks, c.streams);
  const std::vector<Chunk> serial_plan = plan_chunks(c.bytes, kStreamChunks, 1);
  const Phases copy_only{true, false, false};
  const Phases phases{true, c.variant != Variant::copy, c.variant == Variant::copy_compute_d2h};

  // The compute kernel per chunk lasts as long as the chunk's copy, measured here (the first pass
  // warms up, the second is used): the case where overlap can hide the most.
  rig.time(serial_plan, copy_only, 0);
  const double chunk_copy_s =
      rig.time(serial_plan, copy_only, 0) / static_cast<double>(plan.size());
  const auto busy_ns = static_cast<std::uint64_t>(std::max(1e3, chunk_copy_s * 1e9));
  rig.time(plan, phases, busy_ns);  // warm-up of the measured pass
  rig.clear_destinations();         // what is verified below was written by the timed passes
  setup.reset();

  CopySamples samples(c.bytes, 1);
  std::vector<double> overlapped;
  MeasurementLoop loop(state, context.stopping_rule);
  for (auto _ : loop) {
    const CopyTiming timing = rig.lanes.time([&] { rig.enqueue(plan, phases, busy_ns); });
    loop.record(timing.seconds);
    samples.add(timing);
    overlapped.push_back(timing.seconds);
  }

  {
    NvtxRange verify(NvtxCategory::verify, "checksums");
    const std::uint64_t expected = expected_checksum(c.bytes, kStreamsSeed);
    verify_checksum(device_checksum(rig.device.data(), c.bytes, rig.lanes[0]), expected,
                    "data that arrived on the device");
    if (rig.result) {
      verify_checksum(host_checksum(rig.result->data(), c.bytes), expected,
                      "data copied back to the host");
    }
  }

  // The same phases one after another, each timed alone on one stream.
  double copy_s = 0;
  double compute_s = 0;
  double d2h_s = 0;
  {
    NvtxRange serial(NvtxCategory::setup, "serial phases");
    copy_s = rig.serial_seconds(serial_plan, copy_only, busy_ns, context.stopping_rule);
    if (phases.compute) {
      compute_s =
          rig.serial_seconds(serial_plan, {false, true, false}, busy_ns, context.stopping_rule);
    }
    if (phases.d2h) {
      d2h_s = rig.serial_seconds(serial_plan, {false, false, true}, busy_ns, context.stopping_rule);
    }
  }
  const double serial_s = copy_s + compute_s + d2h_s;
  const double total_s = summarize(overlapped).median;

  samples.write_counters(state);
  set_counter(state, "total_ms", total_s * 1e3);
  set_counter(state, "serial_ms", serial_s * 1e3);
  set_counter(state, "copy_ms", copy_s * 1e3);
  set_counter(state, "compute_ms", compute_s * 1e3);
  set_counter(state, "d2h_ms", d2h_s * 1e3);
  set_counter(state, "overlap_pct", overlap_pct(serial_s, total_s));
  set_counter(state, "busy_us_per_chunk",
              phases.compute ? static_cast<double>(busy_ns) / 1e3 : 0.0);
  set_counter(state, "chunks", static_cast<double>(plan.size()));
  set_counter(state, "copy_engines", c.gpu.copy_engines);
}

std::vector<BenchmarkCase> streams_cases(const RunPlan& plan) {
  std::vector<BenchmarkCase> cases;
  for (const DeviceInfo& gpu : plan.devices) {
    for (Variant variant : {Variant::copy, Variant::copy_compute, Variant::copy_compute_d2h}) {
      for (std::size_t streams : stream_counts(plan.preset)) {
        for (std::size_t bytes : streams_sizes(plan.preset)) {
          const CaseName name = case_name_on("h2d/streams", plan, gpu)
                                    .add("work", variant_name(variant))
                                    .add("streams", static_cast<long long>(streams))
                                    .add_bytes("bytes", bytes);
          cases.push_back(
              make_case(name, {{"gpu", gpu.ordinal}, {"streams", static_cast<double>(streams)}},
                        run_streams_case, StreamsCase{gpu, variant, streams, bytes}));
          // The overlapped passes, then each phase alone: copy, compute, copy back.
          cases.back().timed_loops = 2 + (variant != Variant::copy ? 1 : 0) +
                                     (variant == Variant::copy_compute_d2h ? 1 : 0);
        }
      }
    }
  }
  return cases;
}

[[maybe_unused]] const bool streams_registered = register_family({
    "h2d/streams",
    "a pinned transfer in chunks over K streams: copy alone, + compute, + copy back (overlap_pct)",
    /*needs_gpu=*/true,
    streams_cases,
});

}  // namespace
}  // namespace h2d
