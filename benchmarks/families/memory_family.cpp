// h2d/memory: one buffer copied between host and device, by host memory kind, direction, API mode
// and size. The baseline every other family is compared with. dir=both: both directions at once
// (memory_duplex); pages=huge: pageable and registered memory on huge pages; engine=sm: the SMs
// copy instead of a copy engine; kind=managed: managed memory prefetched (memory_managed).

#include <cuda_runtime_api.h>

#include <optional>
#include <string>
#include <vector>

#include "benchmarks/families/memory_duplex.hpp"
#include "benchmarks/families/memory_managed.hpp"
#include "harness/core/byte_size.hpp"
#include "harness/core/case_name.hpp"
#include "harness/core/size_grid.hpp"
#include "harness/cuda/copy_samples.hpp"
#include "harness/cuda/copy_timing.hpp"
#include "harness/cuda/device_buffer.hpp"
#include "harness/cuda/host_memory.hpp"
#include "harness/cuda/huge_host_buffer.hpp"
#include "harness/cuda/latch.hpp"
#include "harness/cuda/scoped_device.hpp"
#include "harness/cuda/verified_copy.hpp"
#include "harness/measure/counters.hpp"
#include "harness/measure/measurement_loop.hpp"
#include "harness/suite/case_builder.hpp"
#include "harness/suite/family.hpp"
#include "harness/trace/nvtx.hpp"
#include "kernels/sm_copy.cuh"

namespace h2d {
namespace {

enum class ApiMode { sync, async };

struct MemoryCase {
  int device = 0;
  Direction direction = Direction::h2d;
  HostKind kind = HostKind::pinned;
  ApiMode mode = ApiMode::async;
  std::size_t bytes = 0;
  bool huge_pages = false;  // pages=huge: pageable or registered memory on huge pages
  // engine=sm: the SMs copy (a kernel through the host memory's mapped address) on this many SMs
  // of the GPU's; 0: a copy engine does (cudaMemcpy*)
  int sm_copy_multiprocessors = 0;
};

// The case's host memory: a HostBuffer of its kind, or the same kind on huge pages.
class CaseHostMemory {
 public:
  explicit CaseHostMemory(const MemoryCase& c) {
    if (c.huge_pages) {
      huge_.emplace(c.kind, c.bytes);
    } else {
      buffer_.emplace(c.kind, c.bytes);
    }
  }
  std::byte* data() const { return huge_ ? huge_->data() : buffer_->data(); }
  // Its address in the device's address space (engine=sm: cudaMallocHost or cudaHostAlloc memory).
  void* device_address() const { return buffer_->device_pointer(); }
  // pages=huge: where its huge pages came from, and the share of it they back.
  const HugePageBuffer* huge_pages() const { return huge_ ? &huge_->pages() : nullptr; }

 private:
  std::optional<HostBuffer> buffer_;
  std::optional<HugeHostBuffer> huge_;
};

constexpr std::uint64_t kMemorySeed = 0x4832444D454D4F52ull;  // "H2DMEMOR"

void run_memory_case(const MemoryCase& c, benchmark::State& state, const CaseContext& context) {
  ScopedDevice on(c.device);
  const int copies = copies_per_measurement(c.bytes);
  std::optional<NvtxRange> setup(std::in_place, NvtxCategory::setup, "allocate and fill");
  const CaseHostMemory host(c);
  DeviceBuffer device(c.device, c.bytes);
  Stream stream(c.device);
  Event start(c.device);
  Event stop(c.device);
  StreamLatch latch(c.device, context.latching);
  const VerifiedCopy copy(host.data(), device.data(), c.bytes, c.direction, copies, kMemorySeed,
                          stream);
  const CopyJob& job = copy.job();
  setup.reset();

  const bool latched =
      c.mode == ApiMode::async && is_page_locked(c.kind) && context.latching == Latching::on;
  const bool by_sms = c.sm_copy_multiprocessors > 0;
  CopyJob sm_job = job;  // engine=sm: the same copy between device addresses
  if (by_sms && c.direction == Direction::h2d) {
    sm_job.source = host.device_address();
  } else if (by_sms) {
    sm_job.destination = host.device_address();
  }
  const unsigned blocks = kernels::sm_copy_blocks(c.bytes, c.sm_copy_multiprocessors);
  CopySamples samples(c.bytes, copies);
  MeasurementLoop loop(state, context.stopping_rule);
  for (auto _ : loop) {
    const CopyTiming timing = by_sms
                                  ? time_latched_sm_copy(sm_job, blocks, latch, stream, start, stop)
                              : c.mode == ApiMode::sync ? time_sync(job)
                              : latched ? time_latched_async(job, latch, stream, start, stop)
                                        : time_unlatched_async(job, stream);
    loop.record(timing.seconds);
    samples.add(timing);
  }

  copy.verify();
  samples.write_counters(state);
  state.SetBytesProcessed(static_cast<std::int64_t>(copies) * static_cast<std::int64_t>(c.bytes));
  // What CUDA says the host memory is: a kind that claims to be pinned and is not shows here.
  set_counter(state, "host_pinned", actual_kind(host.data()) == ActualKind::pinned ? 1 : 0);
  set_counter(state, "latched", latched ? 1 : 0);
  if (by_sms) {  // the SMs the copy held while it ran
    set_counter(state, "sm_copy_blocks", blocks);
  }
  if (const HugePageBuffer* huge = host.huge_pages()) {  // measured after the copies touched it
    set_counter(state, "huge_page_pct", huge->huge_pct());
    set_counter(state, "hugetlb", huge->source() == HugePageSource::hugetlb ? 1 : 0);
  }
}

std::vector<HostKind> memory_kinds() {
  return {HostKind::pageable, HostKind::pinned, HostKind::write_combined, HostKind::registered};
}

// dir=both: page-locked kinds that can receive copies, async (quick: pinned at its largest size).
void add_duplex_cases(std::vector<BenchmarkCase>& cases, const RunPlan& plan,
                      const DeviceInfo& gpu) {
  const bool quick = plan.preset == Preset::quick;
  const std::vector<std::size_t> sizes = transfer_sizes(plan.preset);
  for (HostKind kind : {HostKind::pinned, HostKind::registered}) {
    for (std::size_t bytes : sizes) {
      if (bytes > kMostDuplexBytes ||
          (quick && (kind != HostKind::pinned || bytes != sizes.back()))) {
        continue;
      }
      const CaseName name = case_name_on("h2d/memory", plan, gpu)
                                .add("dir", "both")
                                .add("kind", std::string(to_string(kind)))
                                .add("mode", "async")
                                .add_bytes("bytes", bytes);
      cases.push_back(make_case(name, {{"gpu", gpu.ordinal}}, run_duplex_case,
                                DuplexCase{gpu.ordinal, gpu.copy_engines, kind, bytes}));
      cases.back().timed_loops = kDuplexTimedLoops;
    }
  }
}

// kind=managed: managed memory the host filled, prefetched to the device (not in quick).
void add_managed_cases(std::vector<BenchmarkCase>& cases, const RunPlan& plan,
                       const DeviceInfo& gpu) {
  if (plan.preset == Preset::quick) {
    return;
  }
  for (std::size_t bytes : transfer_sizes(plan.preset)) {
    const CaseName name = case_name_on("h2d/memory", plan, gpu)
                              .add("dir", "h2d")
                              .add("kind", "managed")
                              .add("mode", "async")
                              .add_bytes("bytes", bytes);
    cases.push_back(
        make_case(name, {{"gpu", gpu.ordinal}}, run_managed_case, ManagedCase{gpu.ordinal, bytes}));
  }
}

// engine=sm: the SMs copy instead of a copy engine (nvbandwidth's *_memcpy_sm), async from and to
// pinned memory and from write-combined memory, a block an SM.
void add_sm_copy_cases(std::vector<BenchmarkCase>& cases, const RunPlan& plan,
                       const DeviceInfo& gpu) {
  const std::vector<std::pair<Direction, HostKind>> kinds{
      {Direction::h2d, HostKind::pinned},
      {Direction::h2d, HostKind::write_combined},
      {Direction::d2h, HostKind::pinned}};
  for (const auto& [direction, kind] : kinds) {
    for (std::size_t bytes : transfer_sizes(plan.preset)) {
      const CaseName name = case_name_on("h2d/memory", plan, gpu)
                                .add("dir", std::string(to_string(direction)))
                                .add("kind", std::string(to_string(kind)))
                                .add("mode", "async")
                                .add("engine", "sm")
                                .add_bytes("bytes", bytes);
      MemoryCase c{gpu.ordinal, direction, kind, ApiMode::async, bytes};
      c.sm_copy_multiprocessors = gpu.multiprocessors > 0 ? gpu.multiprocessors : 1;
      cases.push_back(make_case(name, {{"gpu", gpu.ordinal}}, run_memory_case, c));
    }
  }
}

// pages=huge: pageable (sync and async) and registered (async) memory on huge pages, both
// directions, at the sizes of at least two huge pages (not in quick).
void add_huge_page_cases(std::vector<BenchmarkCase>& cases, const RunPlan& plan,
                         const DeviceInfo& gpu) {
  if (plan.preset == Preset::quick) {
    return;
  }
  constexpr std::size_t kSmallestHuge = std::size_t{4} << 20;
  const std::vector<std::pair<HostKind, ApiMode>> kinds{{HostKind::pageable, ApiMode::sync},
                                                        {HostKind::pageable, ApiMode::async},
                                                        {HostKind::registered, ApiMode::async}};
  for (Direction direction : {Direction::h2d, Direction::d2h}) {
    for (const auto& [kind, mode] : kinds) {
      for (std::size_t bytes : transfer_sizes(plan.preset)) {
        if (bytes < kSmallestHuge) {
          continue;
        }
        const CaseName name = case_name_on("h2d/memory", plan, gpu)
                                  .add("dir", std::string(to_string(direction)))
                                  .add("kind", std::string(to_string(kind)))
                                  .add("mode", mode == ApiMode::sync ? "sync" : "async")
                                  .add("pages", "huge")
                                  .add_bytes("bytes", bytes);
        cases.push_back(
            make_case(name, {{"gpu", gpu.ordinal}}, run_memory_case,
                      MemoryCase{gpu.ordinal, direction, kind, mode, bytes, /*huge_pages=*/true}));
      }
    }
  }
}

std::vector<BenchmarkCase> memory_cases(const RunPlan& plan) {
  std::vector<BenchmarkCase> cases;
  for (const DeviceInfo& gpu : plan.devices) {
    for (Direction direction : {Direction::h2d, Direction::d2h}) {
      for (HostKind kind : memory_kinds()) {
        if (direction == Direction::d2h && !receives_device_copies(kind)) {
          continue;  // write-combined memory is host-write-only (docs: README, h2d/memory)
        }
        for (ApiMode mode : {ApiMode::sync, ApiMode::async}) {
          for (std::size_t bytes : transfer_sizes(plan.preset)) {
            const CaseName name = case_name_on("h2d/memory", plan, gpu)
                                      .add("dir", std::string(to_string(direction)))
                                      .add("kind", std::string(to_string(kind)))
                                      .add("mode", mode == ApiMode::sync ? "sync" : "async")
                                      .add_bytes("bytes", bytes);
            cases.push_back(make_case(name, {{"gpu", gpu.ordinal}}, run_memory_case,
                                      MemoryCase{gpu.ordinal, direction, kind, mode, bytes}));
          }
        }
      }
    }
    add_duplex_cases(cases, plan, gpu);
    add_huge_page_cases(cases, plan, gpu);
    add_sm_copy_cases(cases, plan, gpu);
    add_managed_cases(cases, plan, gpu);
  }
  return cases;
}

[[maybe_unused]] const bool memory_registered = register_family({
    "h2d/memory",
    "one buffer host<->device by host memory kind, direction, sync/async and size",
    /*needs_gpu=*/true,
    memory_cases,
});

}  // namespace
}  // namespace h2d
