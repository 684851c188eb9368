#include <fmt/format.h>

#include "benchmarks/commands.hpp"
#include "benchmarks/suite.hpp"
#include "harness/device.hpp"
#include "harness/run_options.hpp"
#include "harness/usage_error.hpp"

namespace h2d {

int list_command(const std::vector<std::string>& args) {
  const RunOptions options = parse_run_options(args, /*listing=*/true);
  const DeviceDiscovery& discovery = discover_devices();
  const RunPlan plan = make_plan(options, discovery);
  const SuiteSelection selection = select_cases(plan, options.filter);
  for (const BenchmarkCase& bench_case : selection.cases) {
    fmt::print("{}\n", bench_case.name);
  }
  for (const auto& skipped : selection.skipped_families) {
    fmt::print("# {} not listed: {}\n", skipped.family, skipped.reason);
  }
  fmt::print("# {} cases, preset {}\n", selection.cases.size(), to_string(options.preset));
  return 0;
}

}  // namespace h2d
