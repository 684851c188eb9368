// h2dbench: measures how to move data from host memory onto GPUs. See README.md.
// Subcommands live in benchmarks/*_command.cpp and register themselves
// (benchmarks/commands/commands.hpp).

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <exception>
#include <string>
#include <vector>

#include "benchmarks/commands/commands.hpp"
#include "h2d/version.hpp"
#include "harness/core/usage_error.hpp"

namespace {

void print_usage() {
  fmt::print("usage: h2dbench [COMMAND] [OPTIONS]\n\ncommands:\n");
  for (const h2d::Command& command : h2d::registered_commands()) {
    fmt::print("  {:<10} {}\n", command.name, command.summary);
  }
  fmt::print("  {:<10} {}\n  {:<10} {}\n", "help", "this text (help COMMAND: one command)",
             "version", "the version and git commit");
  fmt::print("\nusage of each command:\n");
  for (const h2d::Command& command : h2d::registered_commands()) {
    fmt::print("  h2dbench {}\n", command.usage);
  }
  for (const h2d::Command& command : h2d::registered_commands()) {
    if (command.name == "run") {  // the default command: its options belong on the first page
      fmt::print("\nrun options:\n{}", command.options);
    }
  }
}

// `h2dbench COMMAND --help` and `h2dbench help COMMAND`.
void print_command_usage(const h2d::Command& command) {
  fmt::print("usage: h2dbench {}\n{}\n", command.usage, command.summary);
  if (!command.options.empty()) {
    fmt::print("\noptions:\n{}", command.options);
  }
}

const h2d::Command* find_command(const std::string& name) {
  static const std::vector<h2d::Command> commands = h2d::registered_commands();
  for (const h2d::Command& command : commands) {
    if (command.name == name) {
      return &command;
    }
  }
  return nullptr;
}

// "compare, list, run, ..." for messages.
std::string command_names() {
  std::string names;
  for (const h2d::Command& known : h2d::registered_commands()) {
    names += (names.empty() ? "" : ", ") + known.name;
  }
  return names;
}

// --help or -h among a command's options (not after "--", where words are file names).
bool asks_for_help(const std::vector<std::string>& args) {
  for (const std::string& arg : args) {
    if (arg == "--") {
      return false;
    }
    if (arg == "--help" || arg == "-h") {
      return true;
    }
  }
  return false;
}

int dispatch(const std::vector<std::string>& words, const std::string& program) {
  const h2d::Command* run = find_command("run");
  if (words.empty()) {
    return run->handler({}, program);
  }
  const std::string& first = words.front();
  const std::vector<std::string> rest(words.begin() + 1, words.end());
  if (first == "help" || first == "--help" || first == "-h") {
    if (rest.empty()) {
      print_usage();
      return 0;
    }
    const h2d::Command* named = find_command(rest.front());
    if (rest.size() > 1 || named == nullptr) {
      throw h2d::UsageError(fmt::format("help '{}': give one command ({}), e.g. h2dbench help run",
                                        fmt::join(rest, " "), command_names()));
    }
    print_command_usage(*named);
    return 0;
  }
  if (first == "version" || first == "--version") {
    if (!rest.empty()) {
      throw h2d::UsageError(fmt::format("version takes no arguments (got '{}')", rest.front()));
    }
    fmt::print("h2dbench {} ({})\n", h2d::kVersion, h2d::kGitSha);
    return 0;
  }
  const h2d::Command* command = find_command(first);
  const bool implicit_run = command == nullptr && first.rfind("--", 0) == 0;
  if (implicit_run) {
    command = run;  // `h2dbench --preset quick` means run
  }
  if (command != nullptr) {
    const std::vector<std::string>& args = implicit_run ? words : rest;
    if (asks_for_help(args)) {
      print_command_usage(*command);
      return 0;
    }
    return command->handler(args, program);
  }
  throw h2d::UsageError(
      fmt::format("unknown command '{}' (valid: {}, help, version; see "
                  "h2dbench --help)",
                  first, command_names()));
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> words(argv + 1, argv + argc);
  try {
    return dispatch(words, argv[0]);
  } catch (const h2d::UsageError& error) {
    fmt::print(stderr, "h2dbench: error: {}\n", error.what());
    return 2;
  } catch (const std::exception& error) {
    fmt::print(stderr, "h2dbench: fatal: {}\n", error.what());
    return 1;
  }
}
