// multi/scatter: one batch split over N GPUs, two ways. route=direct: each GPU copies its slice
// straight from the host, all at once. route=via_gpu0: the whole batch goes to GPU 0 first, then
// GPU 0 hands each GPU k its slice (what data-parallel training does when the batch is moved to
// the first device and scattered from there): everything funnels through GPU 0's link.
// GB_per_s is batch bytes delivered per second, over one host-clock window. The batch is split in
// 4 KiB units (plan_scatter), so no GPU's share starts at an odd offset: unaligned DMA would skew
// one route against the other. latched=1 where the window's copies waited behind a latch.

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <chrono>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/core/byte_size.hpp"
#include "harness/core/case_name.hpp"
#include "harness/core/checksum.hpp"
#include "harness/core/large_transfer_sizes.hpp"
#include "harness/core/latch_policy.hpp"
#include "harness/core/statistics.hpp"
#include "harness/core/verification.hpp"
#include "harness/cuda/copy_samples.hpp"
#include "harness/cuda/cuda_error.hpp"
#include "harness/cuda/device.hpp"
#include "harness/cuda/device_buffer.hpp"
#include "harness/cuda/device_pattern.hpp"
#include "harness/cuda/event.hpp"
#include "harness/cuda/host_memory.hpp"
#include "harness/cuda/latch.hpp"
#include "harness/cuda/local_pinned_buffer.hpp"
#include "harness/cuda/peer_access.hpp"
#include "harness/cuda/scoped_device.hpp"
#include "harness/cuda/stream.hpp"
#include "harness/host/chunk_plan.hpp"
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

constexpr std::uint64_t kMultiScatterSeed = 0x5343415454455231ull;  // "SCATTER1"

enum class Route { direct, via_gpu0 };

struct ScatterCase {
  std::vector<int> devices;  // devices[0] is "GPU 0" of the via route
  std::size_t batch = 0;
  Route route = Route::direct;
};

// The batch as a data loader leaves it: one pinned buffer, on the first GPU's NUMA node.
struct Batch {
  Batch(const ScatterCase& c, const Topology& topology)
      : host(c.batch, topology.numa_node_of(c.devices.front())),
        slices(plan_scatter(c.batch, c.devices.size())) {
    fill_pattern(host.data(), c.batch, kMultiScatterSeed);
  }
  std::size_t offset(std::size_t i) const { return slices[i].offset; }
  std::size_t length(std::size_t i) const { return slices[i].bytes; }

  LocalPinnedBuffer host;
  std::vector<Chunk> slices;
};

// Checks that GPU `device` holds slice `i` of the batch at `data`.
void verify_slice(const Batch& batch, std::size_t i, int device, const void* data) {
  Stream stream(device);
  verify_checksum(device_checksum(data, batch.length(i), stream),
                  host_checksum(batch.host.data() + batch.offset(i), batch.length(i)),
                  fmt::format("slice {} of the batch on GPU {}", i, device));
}

void write_counters(benchmark::State& state, const std::vector<double>& rates,
                    const std::vector<double>& windows, const ScatterCase& c, int copies,
                    bool numa_local, bool latched) {
  if (rates.empty()) {
    return;
  }
  const SampleStats rate = summarize(rates);
  set_counter(state, "GB_per_s", rate.median);
  set_counter(state, "cv_pct", rate.cv * 100);
  set_counter(state, "window_us", summarize(windows).median * 1e6);
  set_counter(state, "batch_bytes", static_cast<double>(c.batch));
  set_counter(state, "copies_per_measurement", copies);
  set_counter(state, "numa_local", numa_local ? 1 : 0);
  set_counter(state, "latched", latched ? 1 : 0);
  state.SetBytesProcessed(copies * static_cast<std::int64_t>(c.batch));
}

void run_direct(const ScatterCase& c, benchmark::State& state, const CaseContext& context) {
  const int copies = copies_per_concurrent_window(c.batch);
  std::optional<NvtxRange> setup(std::in_place, NvtxCategory::setup, "allocate and fill");
  const Batch batch(c, run_topology());
  std::vector<DeviceBuffer> slices;
  std::vector<ConcurrentLane> lanes;
  for (std::size_t i = 0; i < c.devices.size(); ++i) {
    slices.emplace_back(c.devices[i], batch.length(i));
    CopyJob job;
    job.destination = slices[i].data();
    job.source = batch.host.data() + batch.offset(i);
    job.bytes = batch.length(i);
    job.copies = copies;
    lanes.push_back({c.devices[i], job});
  }
  ConcurrentCopies rig(lanes, context.latching);
  rig.measure();  // warm-up: first copies pay for mappings the window should not see
  for (std::size_t i = 0; i < c.devices.size(); ++i) {
    // Zeros again: a copy that never happens fails the check.
    device_zero(slices[i].data(), batch.length(i), Stream(c.devices[i]));
  }
  setup.reset();

  std::vector<double> rates;
  std::vector<double> windows;
  MeasurementLoop loop(state, context.stopping_rule);
  for (auto _ : loop) {
    const ConcurrentTiming timing = rig.measure();
    loop.record(timing.window_seconds);
    windows.push_back(timing.window_seconds);
    rates.push_back(gb_per_s(static_cast<double>(c.batch) * copies, timing.window_seconds));
  }
  {
    NvtxRange verify(NvtxCategory::verify, "checksum");
    for (std::size_t i = 0; i < c.devices.size(); ++i) {
      verify_slice(batch, i, c.devices[i], slices[i].data());
    }
  }
  write_counters(state, rates, windows, c, copies, batch.host.numa_placed(),
                 context.latching == Latching::on);
}

// The via-GPU-0 route: per batch, GPU 0 waits until every peer has taken its previous slice,
// receives the whole batch, and each peer then copies its slice from GPU 0. With peer access in
// every direction the whole window is queued behind one latch on GPU 0. Without it the driver
// stages each peer copy through host memory and the call holds the host thread until the copy is
// done, so a latch would never be released (a 10 s stall, then "latch timed out"): the window is
// then timed on the host clock from before the first copy is queued (latch_peer_copies).
class ViaFirstGpu {
 public:
  ViaFirstGpu(const ScatterCase& c, const Batch& batch, int copies, Latching latching)
      : c_(c),
        batch_(batch),
        copies_(copies),
        whole_(c.devices[0], c.batch),
        latch_(c.devices[0], latching),
        received_(c.devices[0]) {
    ScopedDevice on(c.devices[0]);
    if (actual_kind(batch.host.data()) != ActualKind::pinned) {
      throw std::logic_error("the batch is not pinned; its copy cannot wait behind a latch");
    }
    for (std::size_t k = 0; k < c.devices.size(); ++k) {
      streams_.emplace_back(c.devices[k]);
    }
    for (std::size_t k = 1; k < c.devices.size(); ++k) {
      slices_.emplace_back(c.devices[k], batch.length(k));
      taken_.emplace_back(c.devices[k]);
      access_.push_back(std::make_unique<PeerAccess>(c.devices[k], c.devices[0]));
      access_.push_back(std::make_unique<PeerAccess>(c.devices[0], c.devices[k]));
    }
    latched_ = latch_peer_copies(peer_to_peer(), latching == Latching::on);
  }

  bool latched() const { return latched_; }

  bool peer_to_peer() const {
    for (const auto& access : access_) {
      if (!access->enabled()) {
        return false;
      }
    }
    return true;
  }

  void zero() {
    device_zero(whole_.data(), c_.batch, streams_[0]);
    for (std::size_t k = 1; k < c_.devices.size(); ++k) {
      device_zero(slices_[k - 1].data(), batch_.length(k), streams_[k]);
    }
  }

  // One window: seconds from the latch's release until every GPU has its slice, `copies` times.
  double measure() {
    using Clock = std::chrono::steady_clock;
    const int first = c_.devices[0];
    Clock::time_point released = Clock::now();
    {
      ScopedDevice on(first);
      std::optional<LatchHold> hold;
      if (latched_) {
        hold.emplace(latch_.block(streams_[0]));
      }
      for (int j = 0; j < copies_; ++j) {
        if (j > 0) {
          for (const Event& taken : taken_) {
            H2D_CUDA_CHECK(cudaStreamWaitEvent(streams_[0].get(), taken.get(), 0));
          }
        }
        H2D_CUDA_CHECK(cudaMemcpyAsync(whole_.data(), batch_.host.data(), c_.batch,
                                       cudaMemcpyHostToDevice, streams_[0].get()));
        received_.record(streams_[0].get());
        for (std::size_t k = 1; k < c_.devices.size(); ++k) {
          ScopedDevice peer(c_.devices[k]);
          const Stream& stream = streams_[k];
          H2D_CUDA_CHECK(cudaStreamWaitEvent(stream.get(), received_.get(), 0));
          H2D_CUDA_CHECK(cudaMemcpyPeerAsync(slices_[k - 1].data(), c_.devices[k],
                                             whole_.data() + batch_.offset(k), first,
                                             batch_.length(k), stream.get()));
          taken_[k - 1].record(stream.get());
        }
      }
      if (hold) {
        released = Clock::now();
        hold->release();
      }
    }
    for (const Stream& stream : streams_) {
      stream.synchronize();
    }
    const Clock::time_point done = Clock::now();
    if (latched_ && latch_.timed_out()) {
      throw std::runtime_error("GPU 0's stream latch timed out; the window is invalid");
    }
    return std::chrono::duration<double>(done - released).count();
  }

  void verify() const {
    verify_slice(batch_, 0, c_.devices[0], whole_.data());
    for (std::size_t k = 1; k < c_.devices.size(); ++k) {
      verify_slice(batch_, k, c_.devices[k], slices_[k - 1].data());
    }
  }

 private:
  const ScatterCase& c_;
  const Batch& batch_;
  int copies_;
  DeviceBuffer whole_;  // the batch on GPU 0; slice 0 stays there
  std::vector<DeviceBuffer> slices_;
  std::vector<Stream> streams_;
  StreamLatch latch_;
  Event received_;            // GPU 0 has the batch
  std::vector<Event> taken_;  // GPU k has copied its slice out of GPU 0
  std::vector<std::unique_ptr<PeerAccess>> access_;
  bool latched_ = false;
};

void run_via_first_gpu(const ScatterCase& c, benchmark::State& state, const CaseContext& context) {
  const int copies = copies_per_concurrent_window(c.batch);
  std::optional<NvtxRange> setup(std::in_place, NvtxCategory::setup, "allocate and fill");
  const Batch batch(c, run_topology());
  ViaFirstGpu route(c, batch, copies, context.latching);
  route.measure();  // warm-up
  route.zero();     // a copy that never happens in the timed windows fails the check
  setup.reset();

  std::vector<double> rates;
  std::vector<double> windows;
  MeasurementLoop loop(state, context.stopping_rule);
  for (auto _ : loop) {
    NvtxRange range(NvtxCategory::copy, "scatter via GPU 0", c.batch * copies);
    const double seconds = route.measure();
    loop.record(seconds);
    windows.push_back(seconds);
    rates.push_back(gb_per_s(static_cast<double>(c.batch) * copies, seconds));
  }
  {
    NvtxRange verify(NvtxCategory::verify, "checksum");
    route.verify();
  }
  write_counters(state, rates, windows, c, copies, batch.host.numa_placed(), route.latched());
  set_counter(state, "p2p", route.peer_to_peer() ? 1 : 0);
}

std::vector<BenchmarkCase> scatter_cases(const RunPlan& plan) {
  std::vector<int> selected;
  for (const DeviceInfo& gpu : plan.devices) {
    selected.push_back(gpu.ordinal);
  }
  if (selected.size() < 2) {
    return {skipped_case(
        "multi/scatter/gpus=several",
        fmt::format("a batch is scattered over 2 or more GPUs; {} selected of {} CUDA sees "
                    "(--devices all selects every one)",
                    selected.size(), discover_devices().devices.size()))};
  }
  std::vector<BenchmarkCase> cases;
  for (Route route : {Route::direct, Route::via_gpu0}) {
    for (std::size_t batch : large_transfer_sizes(plan.preset)) {
      const CaseName name = CaseName(declared_family("multi/scatter"))
                                .add("gpus", ordinal_list(selected))
                                .add("route", route == Route::direct ? "direct" : "via_gpu0")
                                .add_bytes("batch", batch);
      cases.push_back(make_case(name, {{"k", static_cast<double>(selected.size())}},
                                route == Route::direct ? run_direct : run_via_first_gpu,
                                ScatterCase{selected, batch, route}));
    }
  }
  return cases;
}

[[maybe_unused]] const bool multi_scatter_registered = register_family({
    "multi/scatter",
    "a batch split over N GPUs: host to each GPU directly vs whole to GPU 0, then GPU 0 to each",
    /*needs_gpu=*/true,
    scatter_cases,
});

}  // namespace
}  // namespace h2d
