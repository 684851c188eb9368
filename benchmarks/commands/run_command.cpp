#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>

#include "benchmarks/commands/commands.hpp"
#include "benchmarks/commands/suite.hpp"
#include "harness/cli/benchmark_flags.hpp"
#include "harness/cli/output_lock.hpp"
#include "harness/cli/run_options.hpp"
#include "harness/cli/run_progress.hpp"
#include "harness/core/byte_size.hpp"
#include "harness/core/cpu_steal.hpp"
#include "harness/core/latch_policy.hpp"
#include "harness/core/pinned_budget.hpp"
#include "harness/core/stop_signal.hpp"
#include "harness/core/text_wrap.hpp"
#include "harness/core/usage_error.hpp"
#include "harness/cuda/device.hpp"
#include "harness/cuda/gpu_backend.hpp"
#include "harness/cuda/kernel_image.hpp"
#include "harness/cuda/latch_probe.hpp"
#include "harness/decode/image_set_json.hpp"
#include "harness/decode/run_images.hpp"
#include "harness/peers/peer_pairing.hpp"
#include "harness/peers/peer_session.hpp"
#include "harness/report/counter_declarations_json.hpp"
#include "harness/report/report_file.hpp"
#include "harness/report/sample_record.hpp"
#include "harness/report/summary.hpp"
#include "harness/suite/case_runner.hpp"
#include "harness/suite/context.hpp"
#include "harness/suite/run_topology.hpp"
#include "harness/suite/run_trace.hpp"
#include "harness/topology/link_annotation.hpp"
#include "harness/topology/topology.hpp"
#include "harness/trace/nvtx.hpp"

namespace h2d {

namespace {

void announce_devices(const RunPlan& plan) {
  if (gpu_backend_is_simulated()) {
    fmt::print("{}",
               wrap_line("h2dbench: SIMULATED GPU (sim/, for tests): these numbers prove logic, "
                         "never speed; the report says \"backend\": \"simulated\" and does not "
                         "belong in results/"));
  }
  if (plan.devices.empty()) {
    fmt::print("{}", wrap_line(fmt::format(
                         "h2dbench: no usable GPU: {}. Running the host-side families only.",
                         plan.no_gpu_reason)));
    return;
  }
  for (const DeviceInfo& gpu : plan.devices) {
    fmt::print("h2dbench: GPU {}: {} (bus {}, sm_{}{}, {} copy engines)\n", gpu.ordinal, gpu.name,
               gpu.pci_bus_id, gpu.cc_major, gpu.cc_minor, gpu.copy_engines);
  }
}

// Once per run, before any case: whether latches can hold a stream here (and should: not under
// --profile). When they cannot, the whole run goes without them, with one line saying why.
LatchDecision decide_run_latches(const RunPlan& plan, bool profile) {
  std::optional<bool> returned_early;
  if (!plan.devices.empty() && !profile) {
    returned_early = latch_launch_returns_early(plan.devices.front().ordinal);
  }
  LatchDecision decision = decide_latches(profile, returned_early);
  if (!decision.enabled && !plan.devices.empty()) {
    fmt::print("h2dbench: {}\n", decision.reason);
  }
  return decision;
}

// The skipped cases, one line each, except those left after a sticky CUDA error: one line for all.
// Each case that cannot run here with its reason; those a sticky error or Ctrl-C left, counted.
void print_skipped(const std::vector<CaseProblem>& skipped) {
  std::size_t after_sticky = 0;
  for (const auto& problem : skipped) {
    if (problem.kind == ProblemKind::after_sticky_error) {
      ++after_sticky;
    } else if (problem.kind == ProblemKind::cannot_run) {
      fmt::print("{}", wrap_line(fmt::format("skipped {}: {}", problem.name, problem.reason)));
    }
  }
  if (after_sticky > 0) {
    fmt::print("{}", wrap_line(fmt::format("skipped {} GPU case{} after the sticky CUDA error: {}",
                                           after_sticky, after_sticky == 1 ? "" : "s",
                                           sticky_cuda_error())));
  }
}

// "interrupted: 648 of 714 cases done, 66 not run": a case counts as done when it measured,
// failed or could not run here, never when the interrupt stopped it.
std::string interrupted_line(const CaseOutcomes& outcomes, std::size_t total_cases) {
  const auto not_run = static_cast<std::size_t>(
      std::count_if(outcomes.skipped.begin(), outcomes.skipped.end(),
                    [](const CaseProblem& p) { return p.kind == ProblemKind::interrupted; }));
  return fmt::format("interrupted: {} of {} cases done, {} not run", total_cases - not_run,
                     total_cases, not_run);
}

// Writes the trace and puts what it found into the report: report["h2dbench"]["trace"] says what
// was recorded, ["trace_findings"] lists the cases whose claims the driver contradicted.
void record_trace(RunTrace& trace, const std::string& path, const DeviceDiscovery& discovery,
                  nlohmann::json& report) {
  std::map<std::uint32_t, std::string> device_names;
  for (const DeviceInfo& gpu : discovery.devices) {
    device_names[static_cast<std::uint32_t>(gpu.ordinal)] = gpu.name;
  }
  const RunTrace::Outcome outcome = trace.finish(path, report, device_names);
  report["h2dbench"]["trace"] = outcome.summary;
  report["h2dbench"]["trace_findings"] = findings_to_json(outcome.findings);
  for (const TraceFinding& finding : outcome.findings) {
    fmt::print("trace finding: {} {}\n", finding.name, finding.message);
  }
  fmt::print("trace: {} (open it in https://ui.perfetto.dev or chrome://tracing)\n", path);
}

// The user's images: how many, and each file left out with its reason.
void print_image_set(const ImageSet& set) {
  fmt::print("h2dbench: --images: {} images from '{}', mean {:.0f} bytes", set.images.size(),
             set.source, set.mean_compressed_bytes());
  if (set.unread_files > 0) {
    fmt::print(" ({} more .jpg/.jpeg files not read: at most {} are used)", set.unread_files,
               kMaxImages);
  }
  fmt::print("\n");
  for (const SkippedImage& skip : set.skipped) {
    fmt::print("h2dbench: --images: skipped '{}': {}\n", skip.path, skip.reason);
  }
  if (set.skipped_count > set.skipped.size()) {
    fmt::print("h2dbench: --images: {} more files skipped\n",
               set.skipped_count - set.skipped.size());
  }
}

// Google Benchmark runs each case this many times (--benchmark_repetitions), each under the rule.
std::size_t repetitions_asked(const RunOptions& options) {
  const auto asked = benchmark_flag(options.benchmark_flags, "repetitions");
  try {
    return asked ? std::max<std::size_t>(1, std::stoul(*asked)) : 1;
  } catch (const std::exception&) {
    return 1;  // Google Benchmark refuses it before any case runs
  }
}

// Before the measuring starts: how long the run can take at most, from the stopping rule's cap
// over every loop measured under it (the cases' own and their yardsticks': staging's pinned
// reference, streams' serial phases) and every repetition.
void announce_duration(const std::vector<BenchmarkCase>& cases, std::size_t repetitions,
                       const StoppingRule& rule) {
  if (rule.exact_measurements > 0) {
    return;  // profile mode said its own line
  }
  std::size_t loops = 0;
  for (const BenchmarkCase& c : cases) {
    loops += c.timed_loops;
  }
  const std::size_t yardsticks = loops - cases.size();
  fmt::print(
      "{}",
      wrap_line(fmt::format(
          "h2dbench: {} case{}, each measured until its median is known within {:g}% (at least {} "
          "measurements) or for {:g} s{}: at most {} of measuring{}{}, plus each case's setup",
          cases.size(), cases.size() == 1 ? "" : "s", rule.target_rel_ci_pct, rule.min_measurements,
          rule.cap_seconds(),
          rule.bank ? fmt::format(", more (up to {:g} s) with time the cases that needed less left",
                                  rule.most_cap_multiple * rule.cap_seconds())
                    : std::string(" at most"),
          rough_duration(static_cast<double>(loops * repetitions) * rule.cap_seconds()),
          yardsticks > 0 ? fmt::format(" (with the {} yardstick{} measured beside their cases "
                                       "under the same rule)",
                                       yardsticks, yardsticks == 1 ? "" : "s")
                         : std::string(),
          repetitions > 1 ? fmt::format(" ({} repetitions of each case)", repetitions)
                          : std::string())));
}

// After the measuring: how far it ran past the bound announce_duration printed, when it did.
void announce_overrun(const StoppingRule& rule) {
  if (!rule.bank || rule.bank->overruns() == 0) {
    return;
  }
  fmt::print("{}", wrap_line(fmt::format(
                       "h2dbench: measuring ran {} past the bound printed at the start: {} loop{} "
                       "outlasted {} cap (a measurement is always taken whole) when the time the "
                       "other cases left could not pay for it",
                       rough_duration(rule.bank->overrun_s()), rule.bank->overruns(),
                       rule.bank->overruns() == 1 ? "" : "s",
                       rule.bank->overruns() == 1 ? "its" : "their")));
}

// The run's pinned async copy sizes and its loader cases, for the peers to measure beside them.
PeerRequest peer_request(const RunOptions& options, const nlohmann::json& report,
                         const std::vector<int>& selected_devices) {
  constexpr std::size_t kMostPeerSizes = 3;  // nvbandwidth takes seconds a size
  PeerRequest request;
  request.nvbandwidth = options.nvbandwidth;
  request.limit = std::chrono::milliseconds(static_cast<long long>(options.peer_limit_s * 1000));
  request.sizes = peer_copy_sizes(report, kMostPeerSizes);
  request.report = report;
  if (!selected_devices.empty()) {
    request.device = selected_devices.front();
  }
  return request;
}

int run_command(const std::vector<std::string>& args, const std::string& program) {
  RunContext context;
  context.options = parse_run_options(args, /*listing=*/false);
  context.argv.push_back(program);
  context.argv.insert(context.argv.end(), args.begin(), args.end());
  context.discovery = discover_devices();
  context.host = describe_host();
  context.started_utc = utc_timestamp_iso();
  if (const char* connections = std::getenv("CUDA_DEVICE_MAX_CONNECTIONS")) {
    context.device_max_connections = connections;
  }
  const RunPlan plan = make_plan(context.options, context.discovery);
  for (const DeviceInfo& gpu : plan.devices) {
    context.selected_devices.push_back(gpu.ordinal);
  }
  std::optional<ScopedPinnedLimit> pinned_limit;  // --pinned-limit, for the whole run
  if (context.options.pinned_limit) {
    pinned_limit.emplace(*context.options.pinned_limit);
  }
  context.pinned_limit_bytes = pinned_budget().limit();

  if (context.options.images) {
    print_image_set(*plan.images->used());  // make_plan loaded it
  }
  run_topology();  // a bad HWLOC_XMLFILE stops the run now, not after minutes of measuring
  require_kernel_images(plan.devices);  // a GPU this build has no code for: one line, exit 2

  const SuiteSelection selection =
      select_cases(plan, context.options.filter, context.options.benchmark_filter);
  context.skipped_families = selection.skipped_families;
  if (selection.cases.empty()) {
    std::string filters = fmt::format("--filter '{}'", context.options.filter);
    if (!context.options.benchmark_filter.empty()) {
      filters = context.options.filter.empty()
                    ? fmt::format("--benchmark_filter '{}'", context.options.benchmark_filter)
                    : fmt::format("{} and --benchmark_filter '{}'", filters,
                                  context.options.benchmark_filter);
    }
    std::string why;
    for (const std::string& line : group_skipped_families(selection.skipped_families)) {
      why += "; not run here: " + line;
    }
    throw UsageError(fmt::format("no case matches {} (h2dbench list shows them){}", filters, why));
  }

  // Checked after the selection, so a filter that matches nothing leaves no folder behind.
  const std::string out = context.options.out.value_or(
      default_report_path(context.host.hostname, plan.devices, utc_timestamp_compact()));
  check_writable(out);
  const OutputLock report_lock(out, "--out");  // a second run writing the same report stops now
  std::optional<OutputLock> trace_lock;
  if (context.options.trace) {
    const auto same_file = [](const std::string& a, const std::string& b) {
      return std::filesystem::absolute(a).lexically_normal() ==
             std::filesystem::absolute(b).lexically_normal();
    };
    if (same_file(*context.options.trace, out)) {
      throw UsageError(
          fmt::format("--trace '{}' is also the report (--out); give the trace its own file", out));
    }
    check_writable(*context.options.trace, "--trace");
    trace_lock.emplace(*context.options.trace, "--trace");
  }

  announce_devices(plan);
  if (plan.sample.name != "tile") {
    fmt::print("{}", wrap_line("h2dbench: sample " + describe_sample(plan.sample)));
  }
  context.latches = decide_run_latches(plan, context.options.profile);
  CaseContext case_context = h2d::case_context(context.options, plan, selection.cases.size());
  case_context.latching = latching_of(context.latches);
  context.stopping_rule = case_context.stopping_rule;
  announce_duration(selection.cases, repetitions_asked(context.options),
                    case_context.stopping_rule);
  if (context.options.peers) {
    fmt::print("{}", wrap_line(fmt::format(
                         "h2dbench: --peers: after the cases, nvbandwidth and PyTorch where found, "
                         "at most {:g} s in all",
                         context.options.peer_limit_s)));
  }
  nvtx_name_this_thread("h2dbench main");
  if (context.options.profile) {
    fmt::print("h2dbench: profile mode: {} measurements per case, no repetitions\n",
               kProfileIterations);
  }
  std::optional<RunTrace> trace;
  if (context.options.trace) {
    const std::string why = plan.no_gpu_reason.empty() ? "no GPU selected" : plan.no_gpu_reason;
    trace.emplace(plan.devices.empty() ? why : std::string());
    fmt::print("{}", wrap_line(fmt::format("h2dbench: --trace: {}", trace->note())));
  }

  const StopSignalScope stop_on_signal;  // Ctrl-C: finish at the next safe point, keep the report
  const std::optional<CpuTimes> cpu_before = read_cpu_times();
  SuiteRun run = run_selection(selection, context.options, case_context, program);
  if (const std::optional<CpuTimes> cpu_after = read_cpu_times(); cpu_before && cpu_after) {
    context.cpu_steal_pct = steal_pct(*cpu_before, *cpu_after);
  }
  announce_overrun(case_context.stopping_rule);
  nlohmann::json report = std::move(run.report);
  context.outcomes = std::move(run.outcomes);
  report["h2dbench"] = context_to_json(context);
  report["h2dbench"]["run"]["profile"] = context.options.profile;
  add_declarations(report, selection);
  add_topology_to_report(report, context.selected_devices);  // h2dbench.topology and link_pct
  report["h2dbench"]["counters"] = counter_declarations_json(report["benchmarks"]);
  report["h2dbench"]["sample"] =
      sample_to_json(context.options.sample, context.options.sample_given);
  if (const auto images = plan.images->used()) {
    report["h2dbench"]["images"] = image_set_to_json(*images);
  }
  if (trace) {
    record_trace(*trace, *context.options.trace, context.discovery, report);
  }
  if (context.options.peers && !stop_requested()) {
    write_json_atomically(out, report);  // a peer that takes the machine down leaves the cases
    report["h2dbench"]["peers"] =
        run_peers(peer_request(context.options, report, context.selected_devices));
  }
  write_json_atomically(out, report);

  print_skipped(context.outcomes.skipped);
  for (const auto& failed : context.outcomes.failed) {
    fmt::print(stderr, "{}", wrap_line(fmt::format("FAILED {}: {}", failed.name, failed.reason)));
  }
  fmt::print("{}", format_summary(summarize_report(report)));
  fmt::print("report: {}{}\n", out,
             gpu_backend_is_simulated() ? " (SIMULATED GPU: proves logic, never speed)" : "");
  if (stop_requested()) {
    fmt::print(stderr, "h2dbench: {}; the report holds the cases that completed\n",
               interrupted_line(context.outcomes, selection.cases.size()));
    return 130;
  }
  return context.outcomes.failed.empty() ? 0 : 1;
}

constexpr const char* kRunUsage =
    "run [--preset quick|default|full] [--out PATH] [--devices all|0,1] [--filter REGEX] "
    "[--sample SPEC] "
    "[--pinned-limit SIZE] [--profile] [--trace FILE.json] [--watchdog SECONDS] [--images DIR] "
    "[--console compact|full] [--peers] [--nvbandwidth PATH] [--peer-limit SECONDS] "
    "[--benchmark_*...]";

[[maybe_unused]] const bool run_command_registered = register_command({
    "run",
    kRunUsage,
    "run the benchmark suite and write a report (the default command)",
    run_command,
    run_options_help(/*listing=*/false),
});

}  // namespace
}  // namespace h2d
