// h2d/staging: copies from pageable memory, done by the driver and done better. The driver stages
// pageable data through its own small pinned buffer; we compare pin-then-copy (as
// Tensor.pin_memory()), our own bounce ring (pinned slots filled by host threads while the DMA
// engine sends the previous slot) in a fixed shape or tuned on this machine before the timed run,
// and registering the source in place, per copy or once. Host clock around the whole strategy,
// host work included; vs_pinned relates each to a plain async copy from pinned memory of the same
// size, measured in the same case with the same clock.

#include <cuda_runtime_api.h>

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "harness/core/byte_size.hpp"
#include "harness/core/case_name.hpp"
#include "harness/core/checksum.hpp"
#include "harness/core/host_threads.hpp"
#include "harness/core/measure_by_rule.hpp"
#include "harness/core/statistics.hpp"
#include "harness/core/stopwatch.hpp"
#include "harness/core/verification.hpp"
#include "harness/cuda/copy_samples.hpp"
#include "harness/cuda/copy_timing.hpp"
#include "harness/cuda/cuda_error.hpp"
#include "harness/cuda/device_buffer.hpp"
#include "harness/cuda/device_pattern.hpp"
#include "harness/cuda/host_memory.hpp"
#include "harness/cuda/host_registration.hpp"
#include "harness/cuda/scoped_device.hpp"
#include "harness/measure/counters.hpp"
#include "harness/measure/measurement_loop.hpp"
#include "harness/strategy/bounce_ring.hpp"
#include "harness/strategy/staged_copy.hpp"
#include "harness/strategy/strategy_grids.hpp"
#include "harness/strategy/tuned_ring.hpp"
#include "harness/suite/case_builder.hpp"
#include "harness/suite/family.hpp"
#include "harness/trace/nvtx.hpp"

namespace h2d {
namespace {

constexpr std::uint64_t kStagingSeed = 0x4832445354414745ull;  // "H2DSTAGE"

enum class Strategy {
  driver,
  pin_then_copy,
  register_each,
  register_once,
  bounce_ring,
  tuned_ring
};

std::string strategy_name(Strategy strategy) {
  switch (strategy) {
    case Strategy::driver:
      return "driver";
    case Strategy::pin_then_copy:
      return "pin_then_copy";
    case Strategy::register_each:
      return "register";
    case Strategy::register_once:
      return "register_once";
    case Strategy::bounce_ring:
      return "bounce_ring";
    case Strategy::tuned_ring:
      return "tuned_ring";
  }
  return "unknown";
}

struct StagingCase {
  int device = 0;
  Strategy strategy = Strategy::driver;
  std::size_t bytes = 0;
  BounceRingConfig ring;  // bounce_ring only
};

void clear(const DeviceBuffer& device, const Stream& stream) {
  H2D_CUDA_CHECK(cudaMemsetAsync(device.data(), 0, device.size(), stream.get()));
  stream.synchronize();
}

void verify_arrived(const DeviceBuffer& device, const Stream& stream, const std::string& what) {
  NvtxRange verify(NvtxCategory::verify, "checksum");
  verify_checksum(device_checksum(device.data(), device.size(), stream),
                  expected_checksum(device.size(), kStagingSeed), what);
}

// GB/s of a plain async copy from pinned memory, host clock around enqueue and completion: the
// yardstick of vs_pinned, measured as long as the case itself (its stopping rule). Its buffer is
// freed before the strategy runs.
double pinned_reference_gb_per_s(const StagingCase& c, const DeviceBuffer& device,
                                 const Stream& stream, const StoppingRule& rule) {
  NvtxRange range(NvtxCategory::setup, "pinned reference");
  HostBuffer pinned(HostKind::pinned, c.bytes);
  fill_pattern(pinned.data(), c.bytes, kStagingSeed);
  CopyJob job;
  job.destination = device.data();
  job.source = pinned.data();
  job.bytes = c.bytes;
  time_unlatched_async(job, stream);  // warm-up
  clear(device, stream);
  const std::vector<double> seconds =
      measure_by_rule(rule, [&] { return time_unlatched_async(job, stream).seconds; });
  verify_arrived(device, stream, "data of the pinned reference copy");
  return gb_per_s(static_cast<double>(c.bytes), summarize(seconds).median);
}

void run_staging_case(const StagingCase& c, benchmark::State& state, const CaseContext& context) {
  ScopedDevice on(c.device);
  std::optional<NvtxRange> setup(std::in_place, NvtxCategory::setup, "allocate and fill");
  HostBuffer source(HostKind::pageable, c.bytes);
  fill_pattern(source.data(), c.bytes, kStagingSeed);  // first touch outside timing
  DeviceBuffer device(c.device, c.bytes);
  Stream stream(c.device);
  const double reference = pinned_reference_gb_per_s(c, device, stream, context.stopping_rule);

  // What each strategy keeps between copies: made here, outside timing.
  std::optional<HostBuffer> staging;
  std::optional<HostRegistration> registration;
  std::unique_ptr<BounceRing> fixed_ring;
  std::unique_ptr<TunedRing> tuned_ring;
  BounceRing* ring = nullptr;
  switch (c.strategy) {
    case Strategy::pin_then_copy:
      staging.emplace(HostKind::pinned, c.bytes);
      break;
    case Strategy::register_once:
      registration.emplace(source.data(), c.bytes);
      break;
    case Strategy::bounce_ring:
      fixed_ring = std::make_unique<BounceRing>(c.device, c.ring);
      ring = fixed_ring.get();
      break;
    case Strategy::tuned_ring:
      tuned_ring = std::make_unique<TunedRing>(c.device, c.bytes, usable_cores());
      tuned_ring->calibrate(device.data(), source.data());
      ring = &tuned_ring->ring();
      break;
    default:
      break;
  }
  RingRunStats ring_totals;
  const auto run_strategy = [&] {
    switch (c.strategy) {
      case Strategy::driver:
        H2D_CUDA_CHECK(cudaMemcpy(device.data(), source.data(), c.bytes, cudaMemcpyHostToDevice));
        // From pageable memory cudaMemcpy may return once the last piece is staged, before its DMA
        // has landed; wait for it, as every other strategy here waits for its data to arrive.
        H2D_CUDA_CHECK(cudaStreamSynchronize(cudaStreamLegacy));
        break;
      case Strategy::pin_then_copy:
        pin_then_copy(device.data(), source.data(), c.bytes, *staging, stream);
        break;
      case Strategy::register_each:
        register_and_copy(device.data(), source.data(), c.bytes, stream);
        break;
      case Strategy::register_once:
        copy_and_wait(device.data(), source.data(), c.bytes, stream);
        break;
      case Strategy::bounce_ring:
      case Strategy::tuned_ring: {
        const RingRunStats stats = ring->copy(device.data(), source.data(), c.bytes);
        ring_totals.chunks += stats.chunks;
        ring_totals.waits += stats.waits;
        ring_totals.fill_seconds += stats.fill_seconds;
        ring_totals.wait_seconds += stats.wait_seconds;
        break;
      }
    }
  };
  run_strategy();  // warm-up: first use of the staging, registration and ring
  clear(device, stream);
  ring_totals = {};
  setup.reset();

  CopySamples samples(c.bytes, 1);
  double strategy_seconds = 0;
  MeasurementLoop loop(state, context.stopping_rule);
  for (auto _ : loop) {
    NvtxRange range(NvtxCategory::copy, strategy_name(c.strategy), c.bytes);
    Stopwatch watch;
    run_strategy();
    const double seconds = watch.seconds();
    loop.record(seconds);
    samples.add({seconds, seconds});
    strategy_seconds += seconds;
  }
  verify_arrived(device, stream, "data that arrived on the device");

  samples.write_counters(state);
  set_counter(state, "pinned_GB_per_s", reference);
  set_counter(state, "vs_pinned", samples.median_gb_per_s() / reference);
  if (ring != nullptr && ring_totals.chunks > 0) {
    // Where the ring's time went: host copies into slots, waits for a slot's DMA, and the rest
    // (handing each chunk over: waking the threads, enqueueing the copy).
    const double fill_pct = ring_totals.fill_seconds / strategy_seconds * 100;
    const double wait_pct = ring_totals.wait_seconds / strategy_seconds * 100;
    set_counter(state, "slot_waits_per_chunk",
                static_cast<double>(ring_totals.waits) / static_cast<double>(ring_totals.chunks));
    set_counter(state, "fill_pct", fill_pct);
    set_counter(state, "wait_pct", wait_pct);
    set_counter(state, "handoff_pct", std::max(0.0, 100 - fill_pct - wait_pct));
  }
  if (tuned_ring) {
    write_tuning_counters(tuned_ring->tuning(), state);
  }
}

BenchmarkCase staging_case(const RunPlan& plan, const DeviceInfo& gpu, const StagingCase& c) {
  CaseName name = case_name_on("h2d/staging", plan, gpu);
  name.add("strategy", strategy_name(c.strategy));
  std::map<std::string, double> params = {{"gpu", gpu.ordinal}};
  if (c.strategy == Strategy::bounce_ring) {
    name.add_bytes("chunk", c.ring.chunk_bytes)
        .add("depth", static_cast<long long>(c.ring.depth))
        .add("threads", static_cast<long long>(c.ring.threads));
    params["chunk_bytes"] = static_cast<double>(c.ring.chunk_bytes);
    params["depth"] = static_cast<double>(c.ring.depth);
    params["threads"] = static_cast<double>(c.ring.threads);
  }
  name.add_bytes("bytes", c.bytes);
  BenchmarkCase staging = make_case(name, std::move(params), run_staging_case, c);
  staging.timed_loops = 2;  // the strategy and its pinned reference
  return staging;
}

std::vector<BenchmarkCase> staging_cases(const RunPlan& plan) {
  std::vector<BenchmarkCase> cases;
  const std::vector<BounceRingConfig> rings = ring_configs(plan.preset, usable_cores());
  for (const DeviceInfo& gpu : plan.devices) {
    for (std::size_t bytes : staging_sizes(plan.preset)) {
      for (Strategy strategy : {Strategy::driver, Strategy::pin_then_copy, Strategy::register_each,
                                Strategy::register_once}) {
        cases.push_back(staging_case(plan, gpu, {gpu.ordinal, strategy, bytes, {}}));
      }
      for (const BounceRingConfig& ring : rings) {
        if (ring_fits(ring, bytes)) {
          cases.push_back(
              staging_case(plan, gpu, {gpu.ordinal, Strategy::bounce_ring, bytes, ring}));
        }
      }
      cases.push_back(staging_case(plan, gpu, {gpu.ordinal, Strategy::tuned_ring, bytes, {}}));
    }
  }
  return cases;
}

[[maybe_unused]] const bool staging_registered = register_family({
    "h2d/staging",
    "pageable sources: driver copy vs pin-then-copy, bounce ring (C, D, T; or tuned), register",
    /*needs_gpu=*/true,
    staging_cases,
});

}  // namespace
}  // namespace h2d
