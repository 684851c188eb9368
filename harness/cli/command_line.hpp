#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace h2d {

// One option of a subcommand: "--preset" and what its value may be, or a switch (--profile).
struct OptionSpec {
  std::string flag;   // "--preset"
  std::string valid;  // what a value may be, for messages ("quick, default or full");
                      // empty for a switch, which takes no value
};

// What a subcommand accepts: its options, what its bare words are (e.g. "REPORT.json"; empty
// when it takes none), and a prefix of flags passed through unparsed ("--benchmark_").
struct CommandSyntax {
  std::string command;  // "run", for messages
  std::vector<OptionSpec> options;
  std::string operands;
  std::string passthrough_prefix;
};

// The words after a subcommand, read the same way by every subcommand.
struct ParsedArgs {
  std::map<std::string, std::string> values;  // flag -> value ("" for a switch)
  std::vector<std::string> operands;          // bare words, in order
  std::vector<std::string> passthrough;       // words with the passthrough prefix, in order

  bool has(const std::string& flag) const { return values.count(flag) > 0; }
  std::optional<std::string> get(const std::string& flag) const;
};

// "--flag VALUE" or "--flag=VALUE". A value is never empty and never the next flag ("--export
// --json" is a missing value, not a file named --json); a switch takes no value; an option
// given twice is an error rather than "the last one wins"; after "--" every word is an operand.
// Throws UsageError naming the word and what is valid.
ParsedArgs parse_command_line(const CommandSyntax& syntax, const std::vector<std::string>& args);

}  // namespace h2d
