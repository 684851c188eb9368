#include "harness/pipeline/pipeline_verdict.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace h2d {
namespace {

// Below this, no stage is the limit: the loop waits on hand-offs between stages.
constexpr double kSaturated = 0.5;

double pct(double fraction) {
  return fraction * 100.0;
}

}  // namespace

PipelineVerdict judge_pipeline(const StageUtilization& load) {
  // With worker processes the pin copy runs on the receiving thread, after the hand-off.
  const double receiver = load.worker_processes ? load.handoff + load.pin : 0;
  const bool pin_busier = !load.worker_processes && load.pin > load.workers;
  const bool receiver_busier = load.worker_processes && receiver > load.workers;
  const double cpu = pin_busier ? load.pin : receiver_busier ? receiver : load.workers;
  // Synchronous copies hold the step thread while they run: bus and step take turns, and the
  // consumer side is as busy as both together.
  const double consumer = load.sync_copies ? load.bus + load.step : std::max(load.bus, load.step);
  PipelineVerdict verdict;
  std::string what;
  double busiest = 0;
  if (cpu >= consumer && receiver_busier) {
    verdict.bound_by = BoundBy::handoff;
    what = load.pin > 0 ? "the receiving thread (the workers' batches handed over, then pinned)"
                        : "the hand-off (the workers' batches received and mapped)";
    busiest = cpu;
  } else if (cpu >= consumer) {
    verdict.bound_by = BoundBy::cpu_workers;
    what = pin_busier                  ? "the pin thread"
           : load.decoding             ? "decode in the CPU workers"
           : !load.gpu_decoder.empty() ? "the CPU workers (packing JPEG bytes)"
                                       : "the CPU workers";
    busiest = cpu;
  } else if (load.bus >= load.step) {
    verdict.bound_by = BoundBy::bus;
    what = load.gpu_decoder.empty()
               ? std::string("the bus (host-to-device copies)")
               : fmt::format("the JPEG bytes' copy and their decode on the GPU ({})",
                             load.gpu_decoder);
    busiest = load.bus;
  } else {
    verdict.bound_by = BoundBy::gpu_step;
    what = load.gpu_decoder.empty() ? "the GPU step" : "the GPU step (GPU normalize included)";
    busiest = load.step;
  }
  verdict.reason = fmt::format(
      "bound by {}: busy {:.0f}% of the time (workers {:.0f}%, pin {:.0f}%, {} {:.0f}%, step "
      "{:.0f}%)",
      what, pct(busiest), pct(load.workers), pct(load.pin),
      load.gpu_decoder.empty() ? "bus" : "bus+GPU decode", pct(load.bus), pct(load.step));
  if (load.worker_processes) {
    verdict.reason += fmt::format("; hand-off {:.0f}%", pct(load.handoff));
    if (verdict.bound_by == BoundBy::handoff && load.pin > 0) {
      verdict.reason += fmt::format(
          "; pin=shared_pinned (workers collate into page-locked shared memory) removes the pin "
          "copy, {:.0f}% of the time",
          pct(load.pin));
    } else if (verdict.bound_by == BoundBy::handoff && load.fresh_segments) {
      verdict.reason +=
          "; shm=reused (segments mapped once) removes the per-batch map and first touch";
    }
  }
  if (load.sync_copies && verdict.bound_by != BoundBy::cpu_workers) {
    verdict.reason += fmt::format(
        "; copies are synchronous, so bus and step take turns ({:.0f}% together): async copies "
        "from pinned memory would overlap them",
        pct(consumer));
  }
  if (load.decoding && load.bus > 0 && load.worker_count > 0) {
    const double needed = static_cast<double>(load.worker_count) * load.workers / load.bus;
    verdict.workers_to_keep_up = static_cast<std::size_t>(std::max(1.0, std::ceil(needed - 1e-9)));
    verdict.reason += fmt::format(
        "; decode keeps up with the bus with {} worker{} at the measured rate ({} here)",
        verdict.workers_to_keep_up, verdict.workers_to_keep_up == 1 ? "" : "s", load.worker_count);
  }
  if (std::max(busiest, consumer) < kSaturated) {
    verdict.reason +=
        "; no stage is saturated: hand-offs between stages (prefetch depth, wake-ups) limit "
        "the loop";
  }
  return verdict;
}

}  // namespace h2d
