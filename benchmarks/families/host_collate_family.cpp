// host/collate: the host work of a batch before any copy, by collate layout, target and batch
// size: collating the samples into the layout's buffers, then packing those into one block
// (pin=packed), or collating straight into a block laid out like the packed one
// (pin=pinned_slots). The blocks are pageable here: writing page-locked memory costs the host the
// same (it is ordinary cached memory), so no GPU is needed.

#include <fmt/format.h>

#include <optional>
#include <vector>

#include "harness/batch/batch.hpp"
#include "harness/batch/batch_staging.hpp"
#include "harness/batch/sample_axes.hpp"
#include "harness/batch/sample_set.hpp"
#include "harness/core/byte_size.hpp"
#include "harness/core/case_name.hpp"
#include "harness/core/checksum.hpp"
#include "harness/core/sample_series.hpp"
#include "harness/core/verification.hpp"
#include "harness/measure/batch_timing.hpp"
#include "harness/measure/counters.hpp"
#include "harness/suite/case_builder.hpp"
#include "harness/suite/family.hpp"
#include "harness/trace/nvtx.hpp"

namespace h2d {
namespace {

constexpr std::uint64_t kHostCollateSeed = 0x484F5354434F4C4Cull;  // "HOSTCOLL"

// Where the samples end up, and the pin policy whose host work that is.
struct CollateTarget {
  const char* name;
  PinPolicy policy;
};
constexpr CollateTarget kTargets[] = {
    {"layout", PinPolicy::none},
    {"packed", PinPolicy::packed},
    {"slot", PinPolicy::pinned_slots},
};

void run_collate_case(const SampleSpec& spec, BatchLayout layout_kind, Collate collate,
                      PinPolicy policy, std::size_t batch, benchmark::State& state,
                      const CaseContext& context) {
  std::optional<NvtxRange> setup(std::in_place, NvtxCategory::setup, "allocate and fill");
  const LayoutPlan layout = plan_layout(
      layout_kind,
      batch_contents(spec, sent_members(spec, BatchTask::train), batch, collate, kHostCollateSeed));
  const TransferPlan transfer = plan_transfer(layout, policy);
  const SampleSet samples(layout.contents, kHostCollateSeed);
  BatchStaging staging(layout, transfer, HostKind::pageable);
  staging.prepare(samples, 0);  // warm-up
  setup.reset();

  std::size_t batches = 0;
  std::size_t slot = 0;
  const SampleSeries series = time_batches(state, context.stopping_rule, [&] {
    slot = batches++ % staging.slots();
    staging.prepare(samples, slot);
  });

  {
    NvtxRange verify(NvtxCategory::verify, "checksum staged members");
    for (std::size_t sample = 0; sample < batch; ++sample) {
      for (Member member = 0; member < layout.member_count(); ++member) {
        if (samples.bytes(member, sample) == 0) {
          continue;  // an empty tensor: nothing staged
        }
        verify_checksum(
            host_checksum(staging.staged(member, sample, slot), samples.bytes(member, sample)),
            samples.checksum(member, sample),
            fmt::format("the staged {} of sample {}", layout.contents.members[member].name,
                        sample));
      }
    }
  }
  write_batch_counters(state, series, batch);
  set_counter(state, "GB_per_s",
              gb_per_s(static_cast<double>(layout.payload_bytes), series.median("batch")));
  set_counter(state, "payload_bytes", static_cast<double>(layout.payload_bytes));
  set_counter(state, "host_copy_bytes", static_cast<double>(transfer.host_copy_bytes));
  set_counter(state, "copies_per_batch", static_cast<double>(transfer.copies_per_batch));
}

std::vector<BenchmarkCase> collate_cases(const RunPlan& plan) {
  std::vector<BenchmarkCase> cases;
  for (BatchLayout layout : all_batch_layouts()) {
    if (layout == BatchLayout::custom) {
      continue;  // collates into the tuple's buffers: layout=tuple measures it
    }
    for (Collate collate : sample_collates(plan.sample)) {
      for (const CollateTarget& target : kTargets) {
        for (std::size_t batch : host_batch_sizes(plan.preset)) {
          CaseName name(declared_family("host/collate"));
          add_sample_axis(name, plan.sample);
          name.add("layout", std::string(to_string(layout)));
          add_collate_axis(name, plan.sample, collate);
          name.add("into", target.name).add("batch", static_cast<long long>(batch));
          cases.push_back(make_case(name, {{"batch_size", static_cast<double>(batch)}},
                                    run_collate_case, plan.sample, layout, collate, target.policy,
                                    batch));
        }
      }
    }
  }
  return cases;
}

[[maybe_unused]] const bool host_collate_registered = register_family({
    "host/collate",
    "collating the run's samples (--sample; the tile by default) into a batch, packing it into "
    "one block (no GPU needed)",
    /*needs_gpu=*/false,
    collate_cases,
    SampleUse::taken,
});

}  // namespace
}  // namespace h2d
