#pragma once

#include "harness/pipeline/loader_fault.hpp"

namespace h2d {

// The body of a loader worker process (the program h2d_loader_worker, started by
// WorkerProcesses): reads its LoaderStart from `socket`, then answers each BatchRequest with a
// collated batch in shared memory until the main process closes the socket. It never calls CUDA:
// the program does not link the CUDA runtime, so a child cannot create a context or touch the
// parent's (CUDA contexts do not survive a fork, and a device is the main process's alone).
// Returns the process's exit status: 0 at the end of the stream, 2 when the start was unusable.
// `fault`: what a test asks it to get wrong (loader_fault.hpp).
int run_loader_worker(int socket, LoaderFault fault = LoaderFault::none);

}  // namespace h2d
