// h2d/batch: batches of the run's sample (--sample; by default the tile: images, masks, tile ids)
// sent to the GPU, by task, collate layout (and collate=pad|list where a member varies),
// pin policy, how the copies are issued (copy=batched: one cudaMemcpyBatchAsync) and batch size.
// Train sends the batch; predict sends the images and brings a per-pixel output back into pinned
// memory. pinned_fraction is what CUDA says about the memory the copies read: the user story's
// silent no-pin (pin=requested on a tuple) shows as 0.

#include <fmt/format.h>

#include <optional>
#include <string>
#include <vector>

#include "harness/batch/batch.hpp"
#include "harness/batch/batch_device.hpp"
#include "harness/batch/batch_staging.hpp"
#include "harness/batch/pin_policy.hpp"
#include "harness/batch/sample_axes.hpp"
#include "harness/batch/sample_set.hpp"
#include "harness/core/byte_size.hpp"
#include "harness/core/case_name.hpp"
#include "harness/core/case_skipped.hpp"
#include "harness/core/pinned_fit.hpp"
#include "harness/core/sample_series.hpp"
#include "harness/core/stopwatch.hpp"
#include "harness/cuda/batched_copy.hpp"
#include "harness/cuda/latch.hpp"
#include "harness/cuda/scoped_device.hpp"
#include "harness/cuda/stream_work_timing.hpp"
#include "harness/host/host_copy.hpp"
#include "harness/measure/batch_timing.hpp"
#include "harness/measure/counters.hpp"
#include "harness/suite/case_builder.hpp"
#include "harness/suite/family.hpp"
#include "harness/trace/nvtx.hpp"

namespace h2d {
namespace {

constexpr std::uint64_t kBatchSeed = 0x4832444241544348ull;  // "H2DBATCH"

struct BatchCase {
  int device = 0;
  SampleSpec sample;
  BatchTask task = BatchTask::train;
  BatchLayout layout = BatchLayout::single;
  Collate collate = Collate::pad;
  PinPolicy policy = PinPolicy::none;
  std::size_t batch = 1;
  CopyIssue issue;  // copy=batched|kernel: one call for the batch

  BatchContents contents() const {
    return batch_contents(sample, sent_members(sample, task), batch, collate, kBatchSeed);
  }
};

bool is_pinned(const void* pointer) {
  return actual_kind(pointer) == ActualKind::pinned;
}

void run_batch_case(const BatchCase& c, benchmark::State& state, const CaseContext& context) {
  ScopedDevice on(c.device);
  const LayoutPlan layout = plan_layout(c.layout, c.contents());
  const TransferPlan transfer = plan_transfer(layout, c.policy);
  const std::size_t output_bytes = BatchDevice::output_bytes(layout, c.task);
  require_pinned_fits(transfer.pinned_bytes + output_bytes,
                      fmt::format("a {} batch of {} ({}) with pin={}", to_string(c.task), c.batch,
                                  format_bytes(layout.payload_bytes), to_string(c.policy)));

  if (c.issue.call == CopyCall::batched && !batched_copy_built()) {
    throw CaseSkipped(batched_copy_missing());
  }

  std::optional<NvtxRange> setup(std::in_place, NvtxCategory::setup, "allocate and fill");
  const SampleSet samples(layout.contents, kBatchSeed);
  BatchStaging staging(layout, transfer, HostKind::pinned);
  const BatchDevice device(c.device, layout, transfer, c.task, c.issue);
  const Stream stream(c.device);
  const Event start(c.device);
  const Event h2d_done(c.device);
  const Event model_done(c.device);
  const Event stop(c.device);
  StreamLatch latch(c.device, context.latching);

  // What CUDA says the copies read, over every slot. Latch only if all of it is page-locked.
  double pinned = 0;
  bool latched =
      context.latching == Latching::on && (output_bytes == 0 || is_pinned(device.output().data()));
  for (std::size_t slot = 0; slot < staging.slots(); ++slot) {
    const double slot_pinned = pinned_fraction(staging.copies(slot), is_pinned);
    if (c.issue.call == CopyCall::batched && slot_pinned > 0 && slot_pinned < 1) {
      throw CaseSkipped(
          "copy=batched: this batch's sources are part page-locked, part pageable, which "
          "cudaMemcpyBatchAsync refuses (cudaErrorInvalidValue)");
    }
    if (c.issue.call == CopyCall::kernel && slot_pinned < 1) {
      throw CaseSkipped(
          "copy=kernel reads the batch through mapped pinned memory; this batch's sources are not "
          "all page-locked");
    }
    pinned += slot_pinned / staging.slots();
    latched = latched && latchable(staging.copies(slot), is_pinned);
  }
  // One batch: host work into `slot`, then the device work; returns the host work's seconds.
  // Every batch ends with the stream synchronized, so no copy still reads a slot when it comes
  // round again.
  const auto run_batch = [&](std::size_t slot, StreamLatch* with_latch) {
    Stopwatch watch;
    staging.prepare(samples, slot);
    const double host_prep = watch.seconds();
    time_stream_work([&] { device.enqueue(staging.copies(slot), stream, h2d_done, model_done); },
                     with_latch, stream, start, stop);
    return host_prep;
  };
  for (std::size_t slot = 0; slot < staging.slots(); ++slot) {
    run_batch(slot, nullptr);  // warm-up: first use of every slot and of the copy path
  }
  device.clear(stream);  // zeros: a copy that stops happening fails verification
  setup.reset();

  std::size_t batches = 0;
  double host_prep = 0;
  const SampleSeries series = time_batches(
      state, context.stopping_rule,
      [&] { host_prep = run_batch(batches++ % staging.slots(), latched ? &latch : nullptr); },
      [&](SampleSeries& figures) {
        const double h2d = elapsed_ms(start, h2d_done) / 1e3;
        figures.add("host_prep", host_prep);
        figures.add("copy", h2d);
        figures.add("GB_per_s", gb_per_s(static_cast<double>(layout.payload_bytes), h2d));
        if (output_bytes > 0) {
          figures.add("d2h_GB_per_s", gb_per_s(static_cast<double>(output_bytes),
                                               elapsed_ms(model_done, stop) / 1e3));
        }
      });

  device.verify_arrived(samples, stream);
  if (output_bytes > 0) {
    // A batch from zeroed device memory and a zeroed host output: the host reads the output only
    // after the stream that brought it back was synchronized (in time_stream_work).
    device.clear(stream);
    run_batch(0, nullptr);
    device.verify_output(samples);
  }

  write_batch_counters(state, series, c.batch);
  set_counter(state, "host_prep_ms", series.median("host_prep") * 1e3);
  set_counter(state, "copy_ms", series.median("copy") * 1e3);
  set_counter(state, "GB_per_s", series.median("GB_per_s"));
  // The stopping rule knew the batch's median; the copy segment inside it may be known far less
  // well (a steady 9 ms of preparation around a 1 ms copy that varies by 20%).
  set_counter(state, figure_interval_counter("GB_per_s"),
              series.interval("GB_per_s", context.stopping_rule.interval_confidence)
                  .relative_half_width_pct());
  if (output_bytes > 0) {
    set_counter(state, "d2h_GB_per_s", series.median("d2h_GB_per_s"));
    set_counter(state, "d2h_bytes", static_cast<double>(output_bytes));
  }
  set_counter(state, "copies_per_batch", static_cast<double>(transfer.copies_per_batch));
  set_counter(
      state, "calls_per_batch",
      c.issue.call == CopyCall::each ? static_cast<double>(transfer.copies_per_batch) : 1.0);
  set_counter(state, "pinned_fraction", pinned);
  set_counter(state, "pinned_bytes", static_cast<double>(transfer.pinned_bytes));
  set_counter(state, "payload_bytes", static_cast<double>(layout.payload_bytes));
  set_counter(state, "latched", latched ? 1 : 0);
  state.SetBytesProcessed(static_cast<std::int64_t>(layout.payload_bytes));
}

// How a case's copies are issued: a call a copy always; for a train batch of several copies also
// one cudaMemcpyBatchAsync (copy=batched), and where its sources are pageable (pin=none, or a
// custom batch the loader does not pin) with order=any too, CUDA's advice for memory from malloc;
// where they are all pinned, one kernel gathering them from mapped memory (copy=kernel, not in
// quick). quick holds one batched case: a list batch of 16 as pin_memory=True pins it.
std::vector<CopyIssue> copy_issues(Preset preset, const BatchCase& c) {
  std::vector<CopyIssue> issues{CopyIssue{}};
  const bool several =
      plan_transfer(plan_layout(c.layout, c.contents()), c.policy).copies_per_batch > 1;
  if (c.task != BatchTask::train || !several ||
      (preset == Preset::quick &&
       (c.layout != BatchLayout::list || c.policy != PinPolicy::requested || c.batch != 16))) {
    return issues;
  }
  issues.push_back({CopyCall::batched, SourceOrder::stream});
  const bool pageable = c.policy == PinPolicy::none ||
                        (c.policy == PinPolicy::requested && !framework_pins(c.layout));
  if (pageable) {
    issues.push_back({CopyCall::batched, SourceOrder::any});
  } else if (preset != Preset::quick) {
    issues.push_back({CopyCall::kernel, SourceOrder::stream});
  }
  return issues;
}

std::vector<BenchmarkCase> batch_cases(const RunPlan& plan) {
  std::vector<BenchmarkCase> cases;
  for (const DeviceInfo& gpu : plan.devices) {
    for (BatchTask task : {BatchTask::train, BatchTask::predict}) {
      if (task == BatchTask::predict && plan.sample.members.front().varies()) {
        continue;  // the stand-in model reads a fixed-size input: the first member varies
      }
      for (BatchLayout layout : all_batch_layouts()) {
        for (Collate collate : sample_collates(plan.sample)) {
          for (PinPolicy policy : all_pin_policies()) {
            for (std::size_t batch : batch_sizes(plan.preset)) {
              const BatchCase c{gpu.ordinal, plan.sample, task, layout, collate, policy, batch, {}};
              if (redundant_case(plan_layout(layout, c.contents()), policy)) {
                continue;
              }
              for (const CopyIssue& issue : copy_issues(plan.preset, c)) {
                CaseName name = case_name_on("h2d/batch", plan, gpu);
                add_sample_axis(name, plan.sample);
                name.add("task", std::string(to_string(task)))
                    .add("layout", std::string(to_string(layout)));
                add_collate_axis(name, plan.sample, collate);
                name.add("pin", std::string(to_string(policy)));
                if (issue.call != CopyCall::each) {  // absent: older reports keep their names
                  name.add("copy", issue.call == CopyCall::batched ? "batched" : "kernel");
                  if (issue.order != SourceOrder::stream) {
                    name.add("order", std::string(to_string(issue.order)));
                  }
                }
                name.add("batch", static_cast<long long>(batch));
                BatchCase issued = c;
                issued.issue = issue;
                cases.push_back(make_case(
                    name, {{"gpu", gpu.ordinal}, {"batch_size", static_cast<double>(batch)}},
                    run_batch_case, issued));
              }
            }
          }
        }
      }
    }
  }
  return cases;
}

[[maybe_unused]] const bool batch_registered = register_family({
    "h2d/batch",
    "batches of the run's sample (--sample; the tile's image/mask/ids by default) to the GPU by "
    "task, collate layout, pin policy and batch size",
    /*needs_gpu=*/true,
    batch_cases,
    SampleUse::taken,
});

}  // namespace
}  // namespace h2d
