// host/normalize: what normalizing decoded images on the CPU costs (uint8 H×W×C into float32
// C×H×W, per-channel mean and std), by batch size and host threads: the work the GPU path of
// h2d/preprocess moves off the host.

#include <fmt/format.h>

#include <cstring>
#include <optional>
#include <vector>

#include "harness/batch/batch.hpp"
#include "harness/core/case_name.hpp"
#include "harness/core/checksum.hpp"
#include "harness/core/host_threads.hpp"
#include "harness/core/sample_series.hpp"
#include "harness/core/verification.hpp"
#include "harness/cuda/host_memory.hpp"
#include "harness/host/normalize.hpp"
#include "harness/host/thread_team.hpp"
#include "harness/measure/batch_timing.hpp"
#include "harness/measure/counters.hpp"
#include "harness/suite/case_builder.hpp"
#include "harness/suite/family.hpp"
#include "harness/trace/nvtx.hpp"

namespace h2d {
namespace {

constexpr std::uint64_t kHostNormalizeSeed = 0x484F53544E4F524Dull;  // "HOSTNORM"

void run_normalize_case(std::size_t batch, std::size_t threads, benchmark::State& state,
                        const CaseContext& context) {
  std::optional<NvtxRange> setup(std::in_place, NvtxCategory::setup, "allocate and fill");
  const SampleShape shape;
  const ChannelStats stats = imagenet_stats();
  const NormalizeParams params = make_normalize_params(stats);
  const std::size_t values = batch * shape.values();
  HostBuffer decoded(HostKind::pageable, values);
  fill_pattern(decoded.data(), values, kHostNormalizeSeed);
  HostBuffer normalized(HostKind::pageable, values * sizeof(float));
  std::memset(normalized.data(), 0, normalized.size());  // first touch outside timing
  const auto* in = reinterpret_cast<const std::uint8_t*>(decoded.data());
  auto* out = reinterpret_cast<float*>(normalized.data());
  ThreadTeam team(threads, "normalize");
  setup.reset();

  const SampleSeries series = time_batches(state, context.stopping_rule, [&] {
    NvtxRange range(NvtxCategory::compute, "normalize on the CPU", normalized.size());
    normalize_batch(team, in, out, batch, shape, params);
  });

  const double error = max_abs_error(out, in, batch, shape, stats);
  const double bound = normalize_error_bound(params);
  if (!(error <= bound)) {
    throw VerificationError(fmt::format(
        "normalized batch is off by {:.3g}, more than float32 rounding ({:.3g})", error, bound));
  }
  write_batch_counters(state, series, batch);
  set_counter(state, "max_abs_error", error);
}

std::vector<BenchmarkCase> normalize_cases(const RunPlan& plan) {
  std::vector<BenchmarkCase> cases;
  for (std::size_t threads : host_thread_counts(plan.preset, usable_cores())) {
    for (std::size_t batch : host_batch_sizes(plan.preset)) {
      const CaseName name = CaseName(declared_family("host/normalize"))
                                .add("threads", static_cast<long long>(threads))
                                .add("batch", static_cast<long long>(batch));
      cases.push_back(make_case(
          name,
          {{"threads", static_cast<double>(threads)}, {"batch_size", static_cast<double>(batch)}},
          run_normalize_case, batch, threads));
    }
  }
  return cases;
}

[[maybe_unused]] const bool host_normalize_registered = register_family({
    "host/normalize",
    "CPU normalization of uint8 HWC images into float32 CHW by batch size and threads (no GPU)",
    /*needs_gpu=*/false,
    normalize_cases,
});

}  // namespace
}  // namespace h2d
