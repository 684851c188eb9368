#include <fmt/format.h>

#include "benchmarks/commands/commands.hpp"
#include "benchmarks/commands/suite.hpp"
#include "harness/cuda/device.hpp"
#include "harness/cli/run_options.hpp"
#include "harness/core/usage_error.hpp"

namespace h2d {

namespace {

int list_command(const std::vector<std::string>& args, const std::string& /*program*/) {
  const RunOptions options = parse_run_options(args, /*listing=*/true);
  const DeviceDiscovery& discovery = discover_devices();
  const RunPlan plan = make_plan(options, discovery);
  const SuiteSelection selection = select_cases(plan, options.filter);
  for (const BenchmarkCase& bench_case : selection.cases) {
    fmt::print("{}\n", bench_case.name);
  }
  for (const std::string& line : group_skipped_families(selection.skipped_families)) {
    fmt::print("# not listed: {}\n", line);
  }
  fmt::print("# {} cases, preset {}\n", selection.cases.size(), to_string(options.preset));
  return 0;
}

[[maybe_unused]] const bool registered = register_command({
    "list",
    "list [--preset quick|default|full] [--filter REGEX] [--devices all|0,1]",
    "print the cases a run would execute",
    list_command,
});

}  // namespace
}  // namespace h2d
