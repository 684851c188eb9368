#pragma once

#include <functional>
#include <string>
#include <vector>

namespace h2d {

// A subcommand of h2dbench (run, list, compare, ...). `handler` takes the words after the
// command's name and returns the exit code: 0 success, 1 a case failed (wrong data, CUDA error),
// 2 bad input (throw UsageError; main prints it as one line).
struct Command {
  std::string name;
  std::string usage;    // one line: "list [--preset P] [--filter REGEX]"
  std::string summary;  // one line for --help
  std::function<int(const std::vector<std::string>& args, const std::string& program)> handler;
  // What each option means, one "  --flag VALUE   meaning" line each (and any closing notes), for
  // `h2dbench COMMAND --help`; empty when the usage line says it all.
  std::string options = {};
};

// Commands register themselves from their own file in benchmarks/ at static-initialization time:
//   [[maybe_unused]] const bool registered = h2d::register_command({...});
bool register_command(Command command);
// Sorted by name.
std::vector<Command> registered_commands();

}  // namespace h2d
