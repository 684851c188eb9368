#include "benchmarks/families/memory_duplex.hpp"

#include <optional>
#include <vector>

#include "harness/core/measure_by_rule.hpp"
#include "harness/core/statistics.hpp"
#include "harness/cuda/copy_timing.hpp"
#include "harness/cuda/device_buffer.hpp"
#include "harness/cuda/duplex_timing.hpp"
#include "harness/cuda/scoped_device.hpp"
#include "harness/cuda/verified_copy.hpp"
#include "harness/measure/counters.hpp"
#include "harness/measure/measurement_loop.hpp"
#include "harness/trace/nvtx.hpp"

namespace h2d {
namespace {

constexpr std::uint64_t kUpSeed = 0x4832444455504C31ull;    // "H2DDUPL1"
constexpr std::uint64_t kDownSeed = 0x4832444455504C32ull;  // "H2DDUPL2"

double rate_gb_per_s(const CopyJob& job, double median_s) {
  return median_s > 0 ? static_cast<double>(job.bytes) * job.copies / median_s / 1e9 : 0;
}

}  // namespace

void run_duplex_case(const DuplexCase& c, benchmark::State& state, const CaseContext& context) {
  ScopedDevice on(c.device);
  const int copies = copies_per_measurement(c.bytes);
  std::optional<NvtxRange> setup(std::in_place, NvtxCategory::setup, "allocate and fill");
  // Each direction's buffers hold twice the timed bytes: the opposite copies fill them whole, the
  // timed ones their first half, so an opposite copy that never ran leaves a half verify() finds
  // unwritten.
  const std::size_t both = 2 * c.bytes;
  HostBuffer up_host(c.kind, both);
  DeviceBuffer up_device(c.device, both);
  HostBuffer down_host(c.kind, both);
  DeviceBuffer down_device(c.device, both);
  Stream stream(c.device);
  Stream other(c.device);
  Event gate(c.device);
  Event start(c.device);
  Event stop(c.device);
  StreamLatch latch(c.device, context.latching);
  const VerifiedCopy up(up_host.data(), up_device.data(), both, Direction::h2d, copies, kUpSeed,
                        stream);
  const VerifiedCopy down(down_host.data(), down_device.data(), both, Direction::d2h, copies,
                          kDownSeed, stream);
  CopyJob up_timed = up.job();
  up_timed.bytes = c.bytes;
  CopyJob down_timed = down.job();
  down_timed.bytes = c.bytes;
  setup.reset();

  MeasurementLoop loop(state, context.stopping_rule);
  std::vector<double> up_under_down;
  for (auto _ : loop) {
    const CopyTiming timing =
        time_duplex(up_timed, down.job(), latch, stream, other, gate, start, stop);
    loop.record(timing.seconds);
    up_under_down.push_back(timing.seconds);
  }
  const StoppingRule& rule = context.stopping_rule;
  const std::vector<double> down_under_up = measure_by_rule(rule, [&] {
    return time_duplex(down_timed, up.job(), latch, stream, other, gate, start, stop).seconds;
  });
  const std::vector<double> up_alone = measure_by_rule(
      rule, [&] { return time_latched_async(up_timed, latch, stream, start, stop).seconds; });
  const std::vector<double> down_alone = measure_by_rule(
      rule, [&] { return time_latched_async(down_timed, latch, stream, start, stop).seconds; });
  up.verify();
  down.verify();

  const double h2d = rate_gb_per_s(up_timed, summarize(up_under_down).median);
  const double d2h = rate_gb_per_s(down_timed, summarize(down_under_up).median);
  const double h2d_alone = rate_gb_per_s(up_timed, summarize(up_alone).median);
  const double d2h_alone = rate_gb_per_s(down_timed, summarize(down_alone).median);
  set_counter(state, "GB_per_s", h2d + d2h);
  set_counter(state, "h2d_both_GB_per_s", h2d);
  set_counter(state, "d2h_both_GB_per_s", d2h);
  set_counter(state, "h2d_alone_GB_per_s", h2d_alone);
  set_counter(state, "d2h_alone_GB_per_s", d2h_alone);
  if (h2d_alone + d2h_alone > 0) {
    set_counter(state, "duplex_pct", 100 * (h2d + d2h) / (h2d_alone + d2h_alone));
  }
  set_counter(state, "copy_engines", c.copy_engines);
  set_counter(state, "bytes", static_cast<double>(c.bytes));
  set_counter(state, "copies_per_measurement", copies);
  set_counter(state, "host_pinned", actual_kind(up_host.data()) == ActualKind::pinned ? 1 : 0);
  set_counter(state, "latched", context.latching == Latching::on ? 1 : 0);
  state.SetBytesProcessed(static_cast<std::int64_t>(copies) * static_cast<std::int64_t>(c.bytes));
}

}  // namespace h2d
