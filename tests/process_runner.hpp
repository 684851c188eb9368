#pragma once

// Runs h2dbench as a child process for end-to-end tests of commands: exit codes, output, and
// signals (the child is a separate process, so a stop request there cannot leak into the tests).

#include <string>
#include <vector>

namespace h2d::test_process {

struct ProcessResult {
  int exit_code = -1;  // -1 when it ended by a signal
  int signal = 0;      // the signal that ended it, if any
  std::string output;  // stdout and stderr together
};

// Runs H2D_BINARY_PATH with `args` to completion.
ProcessResult run_h2dbench(const std::vector<std::string>& args);

// Starts H2D_BINARY_PATH with `args`, waits until it catches SIGINT (its handler is installed),
// sends SIGINT after `delay_ms` more, and waits for it to end.
ProcessResult interrupt_h2dbench(const std::vector<std::string>& args, int delay_ms);

}  // namespace h2d::test_process
