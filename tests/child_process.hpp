#pragma once

// Runs h2dbench as a child process that a test can signal (Ctrl-C tests): the child is a separate
// process, so a stop request there cannot leak into the tests. For plain runs through a shell,
// see tests/process_runner.hpp.

#include <string>
#include <vector>

namespace h2d::testing {

struct ChildResult {
  int exit_code = -1;  // -1 when it ended by a signal
  int signal = 0;      // the signal that ended it, if any
  std::string output;  // stdout and stderr together
};

// Runs h2dbench_path() with `args` (no shell) to completion.
ChildResult run_h2dbench(const std::vector<std::string>& args);

// Starts h2dbench_path() with `args`, waits until it catches SIGINT (its handler is installed),
// sends SIGINT after `delay_ms` more (`signals` times, `gap_ms` apart), and waits for it to end.
ChildResult interrupt_h2dbench(const std::vector<std::string>& args, int delay_ms, int signals = 1,
                               int gap_ms = 0);

// The same with h2dbench in a process group of its own, the SIGINT sent to the whole group, as a
// terminal's Ctrl-C reaches every process of the foreground job (worker processes included).
ChildResult interrupt_h2dbench_group(const std::vector<std::string>& args, int delay_ms);

// Starts h2dbench_path() with `args`, waits (up to 60 s) for a process it started that runs
// `program` (/proc's 15-character comm name), sends that process `signal_number`, and waits for
// h2dbench to end. `signalled` gets the pid signalled (0 when none appeared).
ChildResult signal_a_child_of_h2dbench(const std::vector<std::string>& args,
                                       const std::string& program, int signal_number,
                                       int* signalled);

// Starts h2dbench_path() with `args` in a process group of its own, waits (up to 60 s) for a
// process it started that runs `program`, then `delay_ms` more, and sends `signal_number` to the
// whole group (as `timeout`, `kill -TERM -PGID` and Slurm's time limit do). `appeared` says
// whether such a process was found.
ChildResult signal_h2dbench_group_once_running(const std::vector<std::string>& args,
                                               const std::string& program, int signal_number,
                                               int delay_ms, bool* appeared);

}  // namespace h2d::testing
