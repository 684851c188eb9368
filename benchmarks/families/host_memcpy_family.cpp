// host/memcpy and host/first_touch: the host-side costs a data loader pays before any DMA.
// They need no GPU, so every machine (CI included) produces a real report.

#include <algorithm>
#include <cstring>
#include <optional>
#include <vector>

#include "harness/core/case_name.hpp"
#include "harness/core/checksum.hpp"
#include "harness/core/host_threads.hpp"
#include "harness/core/size_grid.hpp"
#include "harness/core/stopwatch.hpp"
#include "harness/core/verification.hpp"
#include "harness/cuda/copy_samples.hpp"
#include "harness/cuda/host_memory.hpp"
#include "harness/host/fresh_pages.hpp"
#include "harness/host/team_memcpy.hpp"
#include "harness/host/thread_team.hpp"
#include "harness/measure/counters.hpp"
#include "harness/measure/measurement_loop.hpp"
#include "harness/suite/case_builder.hpp"
#include "harness/suite/family.hpp"
#include "harness/trace/nvtx.hpp"

namespace h2d {
namespace {

constexpr std::uint64_t kHostMemcpySeed = 0x484F53544D454D43ull;  // "HOSTMEMC"
constexpr std::size_t KiB = std::size_t{1} << 10;
constexpr std::size_t MiB = std::size_t{1} << 20;

std::vector<std::size_t> host_sizes(Preset preset) {
  switch (preset) {
    case Preset::quick:
      return {1 * MiB, 64 * MiB};
    case Preset::standard:  // from a core's cache to past any last-level cache
      return geometric_sizes(64 * KiB, 256 * MiB, 16);
    case Preset::full:
      return geometric_sizes(4 * KiB, 1024 * MiB, 2);
  }
  return {};
}

void verify_copy(const void* data, std::size_t bytes) {
  NvtxRange verify(NvtxCategory::verify, "checksum");
  verify_checksum(host_checksum(data, bytes), expected_checksum(bytes, kHostMemcpySeed),
                  "copied data");
}

void run_memcpy_case(std::size_t bytes, std::size_t threads, benchmark::State& state,
                     const CaseContext& context) {
  std::optional<NvtxRange> setup(std::in_place, NvtxCategory::setup, "allocate and fill");
  HostBuffer source(HostKind::pageable, bytes);
  HostBuffer destination(HostKind::pageable, bytes);
  fill_pattern(source.data(), bytes, kHostMemcpySeed);
  std::memset(destination.data(), 0, bytes);  // first touch outside timing
  ThreadTeam team(threads, "memcpy");
  setup.reset();

  CopySamples samples(bytes, 1);
  MeasurementLoop loop(state, context.stopping_rule);
  for (auto _ : loop) {
    NvtxRange stage(NvtxCategory::stage, "memcpy", bytes);
    Stopwatch watch;
    team_memcpy(team, destination.data(), source.data(), bytes);
    const double seconds = watch.seconds();
    loop.record(seconds);
    samples.add({seconds, seconds});
  }
  verify_copy(destination.data(), bytes);
  samples.write_counters(state);
}

// Copy into memory that is new every iteration (page faults included) or reused (already
// faulted in): the gap is what collating into fresh batches costs.
void run_first_touch_case(std::size_t bytes, bool fresh, benchmark::State& state,
                          const CaseContext& context) {
  std::optional<NvtxRange> setup(std::in_place, NvtxCategory::setup, "allocate and fill");
  HostBuffer source(HostKind::pageable, bytes);
  fill_pattern(source.data(), bytes, kHostMemcpySeed);
  std::optional<FreshPages> reused;
  if (!fresh) {
    reused.emplace(bytes);
    std::memset(reused->data(), 0, bytes);
  }
  setup.reset();

  CopySamples samples(bytes, 1);
  long faults = 0;
  std::optional<FreshPages> last;
  MeasurementLoop loop(state, context.stopping_rule);
  for (auto _ : loop) {
    NvtxRange collate(NvtxCategory::collate, fresh ? "copy into fresh pages" : "copy into reused",
                      bytes);
    const long faults_before = minor_page_faults();
    Stopwatch watch;
    std::optional<FreshPages> target;
    std::byte* destination = nullptr;
    if (fresh) {
      target.emplace(bytes);
      destination = target->data();
    } else {
      destination = reused->data();
    }
    std::memcpy(destination, source.data(), bytes);
    const double seconds = watch.seconds();
    faults += minor_page_faults() - faults_before;
    loop.record(seconds);
    samples.add({seconds, seconds});
    if (fresh) {
      last = std::move(target);  // the previous batch is unmapped after the stopwatch stopped
    }
  }
  verify_copy(fresh ? last->data() : reused->data(), bytes);
  samples.write_counters(state);
  set_counter(state, "page_faults_per_MiB",
              static_cast<double>(faults) / static_cast<double>(loop.measurements()) /
                  (static_cast<double>(bytes) / static_cast<double>(MiB)));
}

std::vector<BenchmarkCase> memcpy_cases(const RunPlan& plan) {
  std::vector<BenchmarkCase> cases;
  for (std::size_t threads : host_thread_counts(plan.preset, usable_cores())) {
    for (std::size_t bytes : host_sizes(plan.preset)) {
      const CaseName name = CaseName(declared_family("host/memcpy"))
                                .add("threads", static_cast<long long>(threads))
                                .add_bytes("bytes", bytes);
      cases.push_back(make_case(name, {{"threads", static_cast<double>(threads)}}, run_memcpy_case,
                                bytes, threads));
    }
  }
  return cases;
}

std::vector<BenchmarkCase> first_touch_cases(const RunPlan& plan) {
  std::vector<BenchmarkCase> cases;
  for (bool fresh : {true, false}) {
    for (std::size_t bytes : host_sizes(plan.preset)) {
      const CaseName name = CaseName(declared_family("host/first_touch"))
                                .add("dest", fresh ? "fresh" : "reused")
                                .add_bytes("bytes", bytes);
      cases.push_back(make_case(name, {}, run_first_touch_case, bytes, fresh));
    }
  }
  return cases;
}

[[maybe_unused]] const bool registered_memcpy = register_family({
    "host/memcpy",
    "pageable-to-pageable copy bandwidth by size and host threads (no GPU needed)",
    /*needs_gpu=*/false,
    memcpy_cases,
});

[[maybe_unused]] const bool registered_first_touch = register_family({
    "host/first_touch",
    "copying into freshly mapped pages vs reused ones: the page-fault cost of new batches",
    /*needs_gpu=*/false,
    first_touch_cases,
});

}  // namespace
}  // namespace h2d
