// h2d_loader_worker: one loader worker process of a worker=process pipeline case. h2dbench starts
// it (posix_spawn, harness/pipeline/worker_processes) with its socket on the descriptor named by
// the one argument; it is not meant to be run by hand. It links the pure libraries only: no CUDA
// runtime, so it cannot touch the GPU its parent drives.

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "harness/pipeline/loader_worker.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr,
                 "h2d_loader_worker: started by h2dbench for worker=process cases, with its "
                 "socket's descriptor as the one argument\n");
    return 2;
  }
  // Ctrl-C in a terminal, `timeout`, `kill -TERM -PGID` and Slurm's time limit signal the whole
  // process group: h2dbench stops the case as interrupted and closes this worker's socket, which
  // ends it. Dying of the signal first would make the case look like a worker that crashed.
  std::signal(SIGINT, SIG_IGN);
  std::signal(SIGTERM, SIG_IGN);
  h2d::LoaderFault fault = h2d::LoaderFault::none;
  try {
    fault = h2d::parse_loader_fault(std::getenv(h2d::kLoaderFaultVariable));
  } catch (const std::exception& error) {
    std::fprintf(stderr, "h2d_loader_worker: %s\n", error.what());
    return 2;
  }
  return h2d::run_loader_worker(std::atoi(argv[1]), fault);
}
