#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

namespace h2d {

// How a peer program's run ended.
enum class ProcessEnding { exited, killed_at_limit, signalled, could_not_start, interrupted };

struct ProcessOutcome {
  ProcessEnding ending = ProcessEnding::could_not_start;
  int exit_code = -1;  // when it exited
  std::string output;  // stdout and stderr together, at most the cap asked for
  double elapsed_s = 0;
};

// Runs `argv` (argv[0] found on PATH when it has no '/') with stdout and stderr captured, for at
// most `limit`: then its whole process group is killed, so a peer that hangs (or leaves children
// behind, or closes its output and runs on) costs the bound and nothing more. A stop request
// (Ctrl-C, SIGTERM: harness/core/stop_signal) kills it at once (ProcessEnding::interrupted).
// `environment` entries ("NAME=value") replace or add to the inherited environment. Output beyond
// `max_output_bytes` is read and dropped.
ProcessOutcome run_bounded(const std::vector<std::string>& argv, std::chrono::milliseconds limit,
                           const std::vector<std::string>& environment = {},
                           std::size_t max_output_bytes = std::size_t{4} << 20);

// "exited with code 1", "killed after 60 s (the time bound)", ...: why a run gave no figures.
std::string describe_ending(const ProcessOutcome& outcome, std::chrono::milliseconds limit);

// The command line as a user would type it (words with spaces or quotes single-quoted).
std::string command_text(const std::vector<std::string>& argv);

// The full path of `program` on PATH (or `program` itself when it names a file), or empty.
std::string find_program(const std::string& program);

}  // namespace h2d
