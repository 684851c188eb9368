// host/staging: the host half of a bounce ring (harness/host/ring_schedule.hpp), without a GPU: a
// pageable source copied chunk by chunk into a ring of reused slots by T threads, as the ring
// fills its pinned slots. Shows how chunk size and thread count bound what any staging strategy
// can feed the bus; runs anywhere (pageable slots, nothing to wait for). strategy=tuned_ring
// chooses its shape as h2d/staging's tuned ring does (harness/host/ring_tuner.hpp), so the two
// sides of that ring can be read apart and set beside host/memcpy.

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
#include "harness/host/ring_tuner.hpp"
#include "harness/host/thread_team.hpp"
#include "harness/measure/measurement_loop.hpp"
#include "harness/strategy/strategy_grids.hpp"
#include "harness/strategy/tuned_ring.hpp"
#include "harness/suite/case_builder.hpp"
#include "harness/suite/family.hpp"
#include "harness/trace/nvtx.hpp"

namespace h2d {
namespace {

constexpr std::uint64_t kHostStagingSeed = 0x484F535453544147ull;  // "HOSTSTAG"

// The host side of a ring: slots carved from one pageable block made (and touched) once, threads
// remade only when their count changes. No device: a slot is free again as soon as it is filled.
class HostRing {
 public:
  HostRing(std::size_t slot_bytes, const RingShape& shape)
      : block_(HostKind::pageable, slot_bytes) {
    std::memset(block_.data(), 0, slot_bytes);  // first touch outside timing
    hooks_.wait_slot = [](std::size_t) { return false; };
    hooks_.submit = [](const RingChunk&, const std::byte*) {};
    reshape(shape);
  }

  void reshape(const RingShape& shape) {
    if (!team_ || team_->size() != shape.threads) {
      team_.reset();
      team_.emplace(shape.threads, "stage");
    }
    shape_ = shape;
    slots_.clear();
    for (std::size_t i = 0; i < shape.depth; ++i) {
      slots_.push_back(block_.data() + i * shape.chunk_bytes);
    }
  }

  // One pass of `bytes` of `source` through the slots; `hooks` replace the do-nothing ones.
  void pass(const std::byte* source, std::size_t bytes) { pass(source, bytes, hooks_); }
  void pass(const std::byte* source, std::size_t bytes, const RingHooks& hooks) {
    run_ring(RingSchedule(bytes, shape_.chunk_bytes, shape_.depth), slots_, source, *team_, hooks);
  }

  const RingShape& shape() const { return shape_; }
  const RingHooks& hooks() const { return hooks_; }

 private:
  HostBuffer block_;
  std::optional<ThreadTeam> team_;
  RingShape shape_;
  std::vector<std::byte*> slots_;
  RingHooks hooks_;
};

// The timed passes and the check that the chunks the ring filled add up to the source.
void measure_ring(HostRing& ring, const HostBuffer& source, benchmark::State& state,
                  const StoppingRule& rule) {
  const std::size_t bytes = source.size();
  ring.pass(source.data(), bytes);  // warm-up
  CopySamples samples(bytes, 1);
  MeasurementLoop loop(state, rule);
  for (auto _ : loop) {
    NvtxRange range(NvtxCategory::stage, "ring fill", bytes);
    Stopwatch watch;
    ring.pass(source.data(), bytes);
    const double seconds = watch.seconds();
    loop.record(seconds);
    samples.add({seconds, seconds});
  }
  {
    // Outside timing, the same pass with every filled slot collected into one buffer.
    NvtxRange verify(NvtxCategory::verify, "collect and checksum");
    HostBuffer collected(HostKind::pageable, bytes);
    std::memset(collected.data(), 0, bytes);
    RingHooks collect = ring.hooks();
    collect.submit = [&](const RingChunk& chunk, const std::byte* slot) {
      std::memcpy(collected.data() + chunk.offset, slot, chunk.bytes);
    };
    ring.pass(source.data(), bytes, collect);
    verify_checksum(host_checksum(collected.data(), bytes),
                    expected_checksum(bytes, kHostStagingSeed), "chunks staged through the ring");
  }
  samples.write_counters(state);
}

HostBuffer filled_source(std::size_t bytes) {
  NvtxRange setup(NvtxCategory::setup, "allocate and fill");
  HostBuffer source(HostKind::pageable, bytes);
  fill_pattern(source.data(), bytes, kHostStagingSeed);
  return source;
}

void run_host_staging_case(const HostStagingPoint& point, benchmark::State& state,
                           const CaseContext& context) {
  const HostBuffer source = filled_source(point.bytes);
  HostRing ring(point.chunk_bytes * point.depth, {point.chunk_bytes, point.depth, point.threads});
  measure_ring(ring, source, state, context.stopping_rule);
}

// The shape chosen by the search h2d/staging's tuned ring makes, with the same space and budget.
void run_tuned_host_staging_case(std::size_t bytes, benchmark::State& state,
                                 const CaseContext& context) {
  const HostBuffer source = filled_source(bytes);
  const RingCalibration calibration;
  const RingSearchSpace space = calibration_space(bytes, usable_cores(), calibration);
  HostRing ring(ring_space_pinned_bytes(space), ring_search_start(space));
  RingTuning tuning;
  {
    NvtxRange range(NvtxCategory::setup, "calibrate ring", space.bytes);
    tuning = calibrate_ring(
        space, calibration, [&](const RingShape& shape) { ring.reshape(shape); },
        [&] { ring.pass(source.data(), space.bytes); });
  }
  measure_ring(ring, source, state, context.stopping_rule);
  write_tuning_counters(tuning, state);
}

std::vector<BenchmarkCase> host_staging_cases(const RunPlan& plan) {
  std::vector<BenchmarkCase> cases;
  const std::vector<HostStagingPoint> grid = host_staging_grid(plan.preset, usable_cores());
  for (const HostStagingPoint& point : grid) {
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
  if (!grid.empty()) {
    const std::size_t bytes = grid.front().bytes;
    const CaseName name = CaseName(declared_family("host/staging"))
                              .add("strategy", "tuned_ring")
                              .add_bytes("bytes", bytes);
    cases.push_back(make_case(name, {}, run_tuned_host_staging_case, bytes));
  }
  return cases;
}

[[maybe_unused]] const bool host_staging_registered = register_family({
    "host/staging",
    "the host half of a bounce ring: chunked copies into reused slots, fixed shapes and tuned",
    /*needs_gpu=*/false,
    host_staging_cases,
});

}  // namespace
}  // namespace h2d
