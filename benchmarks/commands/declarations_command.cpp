// h2dbench declarations: what every family's cases mean (harness/core/family_declarations.cpp)
// as JSON, for readers of reports written before reports carried them. plots/ reads its copy,
// plots/declared_families.json; a test keeps that file equal to this output.

#include <fmt/format.h>

#include "benchmarks/commands/commands.hpp"
#include "harness/cli/command_line.hpp"
#include "harness/core/family_axes.hpp"
#include "harness/report/declarations_json.hpp"

namespace h2d {
namespace {

int declarations_command(const std::vector<std::string>& args, const std::string& /*program*/) {
  parse_command_line({"declarations", {}, "", ""}, args);  // no option, no operand
  fmt::print("{}\n", declarations_to_json(declared_families()).dump(1));
  return 0;
}

[[maybe_unused]] const bool declarations_command_registered = register_command({
    "declarations",
    "declarations",
    "every family's axes (workload or strategy), naive baseline and metric, as JSON",
    declarations_command,
});

}  // namespace
}  // namespace h2d
