// host/staging: the host half of a bounce ring (harness/host/ring_schedule.hpp), without a GPU: a
// pageable source copied chunk by chunk into a ring of reused slots by T threads, as the ring
// fills its pinned slots. Shows how chunk size and thread count bound what any staging strategy
// can feed the bus; runs anywhere (pageable slots, nothing to wait for).

#include <cstring>
#include <optional>
#include <vector>

#include "harness/core/case_name.hpp"
#include "harness/core/checksum.hpp"
#include "harness/core/host_threads.hpp"
#include "harness/core/stopwatch.hpp"
#include "harness/core/verification.hpp"
#include "harness/cuda/copy_samples.hpp"
#include "harness/cuda/host_memory.hpp"
#include "harness/host/ring_schedule.hpp"
#include "harness/host/thread_team.hpp"
#include "harness/strategy/strategy_grids.hpp"
#include "harness/suite/case_builder.hpp"
#include "harness/suite/family.hpp"
#include "harness/trace/nvtx.hpp"

namespace h2d {
namespace {

constexpr std::uint64_t kHostStagingSeed = 0x484F535453544147ull;  // "HOSTSTAG"

void run_host_staging_case(const HostStagingPoint& point, benchmark::State& state) {
  std::optional<NvtxRange> setup(std::in_place, NvtxCategory::setup, "allocate and fill");
  HostBuffer source(HostKind::pageable, point.bytes);
  fill_pattern(source.data(), point.bytes, kHostStagingSeed);
  std::vector<HostBuffer> slot_buffers;
  std::vector<std::byte*> slots;
  for (std::size_t i = 0; i < point.depth; ++i) {
    slot_buffers.emplace_back(HostKind::pageable, point.chunk_bytes);
    std::memset(slot_buffers.back().data(), 0, point.chunk_bytes);  // first touch outside timing
    slots.push_back(slot_buffers.back().data());
  }
  ThreadTeam team(point.threads, "stage");
  const RingSchedule schedule(point.bytes, point.chunk_bytes, point.depth);
  // No device: a slot is free again as soon as it is filled.
  RingHooks hooks;
  hooks.wait_slot = [](std::size_t) { return false; };
  hooks.submit = [](const RingChunk&, const std::byte*) {};
  run_ring(schedule, slots, source.data(), team, hooks);  // warm-up
  setup.reset();

  CopySamples samples(point.bytes, 1);
  for (auto _ : state) {
    NvtxRange range(NvtxCategory::stage, "ring fill", point.bytes);
    Stopwatch watch;
    run_ring(schedule, slots, source.data(), team, hooks);
    const double seconds = watch.seconds();
    state.SetIterationTime(seconds);
    samples.add({seconds, seconds});
  }

  {
    // Outside timing, the same pass with every filled slot collected into one buffer: the chunks
    // the ring filled must add up to the source.
    NvtxRange verify(NvtxCategory::verify, "collect and checksum");
    HostBuffer collected(HostKind::pageable, point.bytes);
    std::memset(collected.data(), 0, point.bytes);
    RingHooks collect = hooks;
    collect.submit = [&](const RingChunk& chunk, const std::byte* slot) {
      std::memcpy(collected.data() + chunk.offset, slot, chunk.bytes);
    };
    run_ring(schedule, slots, source.data(), team, collect);
    verify_checksum(host_checksum(collected.data(), point.bytes),
                    expected_checksum(point.bytes, kHostStagingSeed),
                    "chunks staged through the ring");
  }
  samples.write_counters(state);
}

std::vector<BenchmarkCase> host_staging_cases(const RunPlan& plan) {
  std::vector<BenchmarkCase> cases;
  for (const HostStagingPoint& point : host_staging_grid(plan.preset, usable_cores())) {
    const CaseName name = CaseName(declared_family("host/staging"))
                              .add_bytes("chunk", point.chunk_bytes)
                              .add("depth", static_cast<long long>(point.depth))
                              .add("threads", static_cast<long long>(point.threads))
                              .add_bytes("bytes", point.bytes);
    cases.push_back(make_case(name,
                              {{"chunk_bytes", static_cast<double>(point.chunk_bytes)},
                               {"depth", static_cast<double>(point.depth)},
                               {"threads", static_cast<double>(point.threads)}},
                              run_host_staging_case, point));
  }
  return cases;
}

[[maybe_unused]] const bool host_staging_registered = register_family({
    "host/staging",
    "the host half of a bounce ring: chunked copies into reused slots by chunk size and threads",
    /*needs_gpu=*/false,
    host_staging_cases,
});

}  // namespace
}  // namespace h2d
