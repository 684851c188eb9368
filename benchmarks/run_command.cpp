#include <fmt/format.h>

#include "benchmarks/commands.hpp"
#include "benchmarks/suite.hpp"
#include "harness/byte_size.hpp"
#include "harness/context.hpp"
#include "harness/device.hpp"
#include "harness/pinned_budget.hpp"
#include "harness/report_file.hpp"
#include "harness/run_options.hpp"
#include "harness/stop_signal.hpp"
#include "harness/usage_error.hpp"
#include "harness/watchdog.hpp"

namespace h2d {

namespace {

void announce_devices(const RunPlan& plan) {
  if (plan.devices.empty()) {
    fmt::print("h2dbench: no usable GPU: {}. Running the host-side families only.\n",
               plan.no_gpu_reason);
    return;
  }
  for (const DeviceInfo& gpu : plan.devices) {
    fmt::print("h2dbench: GPU {}: {} (bus {}, sm_{}{}, {} copy engines)\n", gpu.ordinal, gpu.name,
               gpu.pci_bus_id, gpu.cc_major, gpu.cc_minor, gpu.copy_engines);
  }
}

int run_command(const std::vector<std::string>& args, const std::string& program) {
  RunContext context;
  context.options = parse_run_options(args, /*listing=*/false);
  context.argv.push_back(program);
  context.argv.insert(context.argv.end(), args.begin(), args.end());
  context.discovery = discover_devices();
  context.host = describe_host();
  context.started_utc = utc_timestamp_iso();
  const RunPlan plan = make_plan(context.options, context.discovery);
  for (const DeviceInfo& gpu : plan.devices) {
    context.selected_devices.push_back(gpu.ordinal);
  }
  if (context.options.pinned_limit) {
    set_pinned_limit(*context.options.pinned_limit);
  }
  context.pinned_limit_bytes = pinned_budget().limit();
  if (context.options.watchdog_s) {
    set_watchdog_timeout(Watchdog::Seconds(*context.options.watchdog_s));
  }

  const std::string out = context.options.out.value_or(
      default_report_path(context.host.hostname, plan.devices, utc_timestamp_compact()));
  check_writable(out);

  const SuiteSelection selection = select_cases(plan, context.options.filter);
  context.skipped_families = selection.skipped_families;
  if (selection.cases.empty()) {
    std::string why;
    for (const auto& skipped : selection.skipped_families) {
      why += fmt::format("; {} skipped: {}", skipped.family, skipped.reason);
    }
    throw UsageError(fmt::format("no case matches --filter '{}' (h2dbench list shows them){}",
                                 context.options.filter, why));
  }
  announce_devices(plan);

  const StopSignalScope stop_on_signal;  // Ctrl-C: finish at the next safe point, keep the report
  nlohmann::json report = run_selection(selection, context.options, program);
  context.outcomes = case_outcomes();
  report["h2dbench"] = context_to_json(context);
  write_json_atomically(out, report);

  for (const auto& skipped : context.outcomes.skipped) {
    fmt::print("skipped {}: {}\n", skipped.name, skipped.reason);
  }
  for (const auto& failed : context.outcomes.failed) {
    fmt::print(stderr, "FAILED {}: {}\n", failed.name, failed.reason);
  }
  fmt::print("report: {}\n", out);
  if (stop_requested()) {
    fmt::print(stderr, "h2dbench: interrupted; the report holds the cases that completed\n");
    return 130;
  }
  return context.outcomes.failed.empty() ? 0 : 1;
}

constexpr const char* kRunUsage =
    "run [--preset quick|default|full] [--out PATH] [--devices all|0,1] [--filter REGEX] "
    "[--pinned-limit SIZE] [--watchdog SECONDS] [--benchmark_*...]";

[[maybe_unused]] const bool registered = register_command({
    "run",
    kRunUsage,
    "run the benchmark suite and write a report (the default command)",
    run_command,
});

}  // namespace
}  // namespace h2d
