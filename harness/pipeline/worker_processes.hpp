#pragma once

#include <sys/types.h>

#include <cstddef>
#include <string>
#include <vector>

#include "harness/host/shared_segment.hpp"
#include "harness/pipeline/loader_messages.hpp"
#include "harness/pipeline/pipeline_config.hpp"

namespace h2d {

// A worker process ended while the loop still needed it.
class WorkerProcessDied : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The program a loader worker process runs: h2d_loader_worker beside this executable.
std::string loader_worker_program();

// config.workers loader worker processes, each connected by a Unix socket (SOCK_SEQPACKET).
// They are started with posix_spawn, which execs h2d_loader_worker (PyTorch's `spawn` start
// method), never a bare fork: by the time a loop starts, this process runs threads (CUDA's, the
// simulator's, NVTX's, the watchdog's), and a forked child inherits every lock one of them held at
// the fork with no thread left to release it, PyTorch's fork deadlock (pytorch #130610). An exec'd
// program starts with one thread and nothing locked. With shm=reused each worker maps `ring`.
class WorkerProcesses {
 public:
  // Throws std::runtime_error naming the program when it is missing or cannot start.
  WorkerProcesses(const PipelineConfig& config, const std::vector<SharedSegment>& ring,
                  std::size_t slot_bytes);
  WorkerProcesses(const WorkerProcesses&) = delete;
  WorkerProcesses& operator=(const WorkerProcesses&) = delete;
  // Closes the sockets (a worker exits at the end of its stream), gives them a moment, kills what
  // is left and reaps every one.
  ~WorkerProcesses();

  std::size_t size() const { return workers_.size(); }
  int socket(std::size_t worker) const { return workers_[worker].socket; }
  pid_t pid(std::size_t worker) const { return workers_[worker].pid; }
  // After the worker's stream ended: reaps it and says how it ended ("worker 2 (pid 812) was
  // killed by signal 9 (Killed)").
  std::string describe_end(std::size_t worker);
  // After the worker's stream ended: throws RunInterrupted when the run was asked to stop (a signal
  // to the process group reaches the workers and this process together, and whichever is noticed
  // first it is an interruption), else WorkerProcessDied with how it ended and `context`.
  [[noreturn]] void throw_ended(std::size_t worker, const std::string& context);

 private:
  struct Worker {
    pid_t pid = -1;
    int socket = -1;
    bool reaped = false;
    int status = 0;
  };
  void spawn(const std::string& program, std::size_t index);
  void send_start(const LoaderStart& start, const std::vector<std::uint64_t>& sample,
                  const std::vector<SharedSegment>& ring);
  void stop_all() noexcept;

  std::vector<Worker> workers_;
};

}  // namespace h2d
