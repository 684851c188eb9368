#include <fmt/format.h>

#include <set>
#include <string>

#include "benchmarks/commands/commands.hpp"
#include "benchmarks/commands/suite.hpp"
#include "harness/cli/run_options.hpp"
#include "harness/core/case_name.hpp"
#include "harness/core/usage_error.hpp"
#include "harness/cuda/device.hpp"
#include "harness/suite/family.hpp"

namespace h2d {

namespace {

// The families whose cases need a GPU, to mark them in `list --all`.
std::set<std::string> gpu_families() {
  std::set<std::string> names;
  for (const Family& family : registered_families()) {
    if (family.needs_gpu) {
      names.insert(family.name);
    }
  }
  return names;
}

int list_command(const std::vector<std::string>& args, const std::string& /*program*/) {
  const RunOptions options = parse_run_options(args, /*listing=*/true);
  const DeviceDiscovery& discovery = discover_devices();
  // Without a GPU, --all previews a GPU run instead of leaving its families out.
  const bool preview = options.all_cases && !discovery.usable();
  const RunPlan plan = preview ? make_preview_plan(options) : make_plan(options, discovery);
  const SuiteSelection selection = select_cases(plan, options.filter);
  const std::set<std::string> needs_gpu = preview ? gpu_families() : std::set<std::string>{};
  std::size_t gpu_cases = 0;
  for (const BenchmarkCase& bench_case : selection.cases) {
    if (needs_gpu.count(parse_case_name(bench_case.name).family) > 0) {
      fmt::print("{}  # needs a GPU\n", bench_case.name);
      ++gpu_cases;
    } else {
      fmt::print("{}\n", bench_case.name);
    }
  }
  for (const std::string& line : group_skipped_families(selection.skipped_families)) {
    fmt::print("# not listed: {}\n", line);
  }
  if (!selection.skipped_families.empty() && !discovery.usable()) {
    fmt::print("# h2dbench list --all shows them, marked \"needs a GPU\"\n");
  }
  fmt::print("# sample {}\n", describe_sample(options.sample));
  fmt::print("# {} cases, preset {}", selection.cases.size(), to_string(options.preset));
  if (preview) {
    fmt::print("; {} need a GPU (no usable GPU here: {})", gpu_cases, discovery.unavailable_reason);
  }
  fmt::print("\n");
  return 0;
}

[[maybe_unused]] const bool list_command_registered = register_command({
    "list",
    "list [--preset quick|default|full] [--filter REGEX] [--devices all|0,1] [--sample SPEC] "
    "[--all]",
    "print the cases a run would execute",
    list_command,
    run_options_help(/*listing=*/true),
});

}  // namespace
}  // namespace h2d
