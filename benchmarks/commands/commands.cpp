#include "benchmarks/commands/commands.hpp"

#include <algorithm>
#include <stdexcept>

namespace h2d {
namespace {
std::vector<Command>& registry() {
  static std::vector<Command> commands;
  return commands;
}
}  // namespace

bool register_command(Command command) {
  for (const Command& existing : registry()) {
    if (existing.name == command.name) {
      throw std::logic_error("command registered twice: " + command.name);
    }
  }
  registry().push_back(std::move(command));
  return true;
}

std::vector<Command> registered_commands() {
  std::vector<Command> commands = registry();
  std::sort(commands.begin(), commands.end(),
            [](const Command& a, const Command& b) { return a.name < b.name; });
  return commands;
}

}  // namespace h2d
