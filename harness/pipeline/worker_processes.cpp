#include "harness/pipeline/worker_processes.hpp"

#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <system_error>
#include <thread>

#include "harness/core/stop_signal.hpp"
#include "harness/decode/image_set.hpp"
#include "harness/pipeline/loader_messages.hpp"

extern char** environ;

namespace h2d {
namespace {

// The descriptor a worker finds its socket on.
constexpr int kWorkerSocketFd = 3;

std::string describe_status(int status) {
  if (WIFEXITED(status)) {
    return fmt::format("exited with status {}", WEXITSTATUS(status));
  }
  if (WIFSIGNALED(status)) {
    return fmt::format("was killed by signal {} ({})", WTERMSIG(status),
                       strsignal(WTERMSIG(status)));
  }
  return fmt::format("ended (wait status {})", status);
}

}  // namespace

std::string loader_worker_program() {
  std::string self(4096, '\0');
  const ssize_t length = readlink("/proc/self/exe", self.data(), self.size());
  if (length <= 0) {
    throw std::system_error(errno, std::generic_category(), "readlink(/proc/self/exe)");
  }
  self.resize(static_cast<std::size_t>(length));
  return self.substr(0, self.rfind('/') + 1) + "h2d_loader_worker";
}

WorkerProcesses::WorkerProcesses(const PipelineConfig& config,
                                 const std::vector<SharedSegment>& ring, std::size_t slot_bytes) {
  const std::string program = loader_worker_program();
  if (access(program.c_str(), X_OK) != 0) {
    throw std::runtime_error(fmt::format(
        "worker=process runs its workers as {}, which is missing or not executable (it is built "
        "and bundled with h2dbench)",
        program));
  }
  LoaderStart start = loader_start(config, slot_bytes);
  if (config.decode == DecodeMode::cpu) {
    if (!config.images || (!config.images->generated && config.image_dir.empty())) {
      throw std::invalid_argument(
          "worker=process decodes the run's image set (--images or the generated one): a worker "
          "process makes it again from that, not from another set in this process's memory");
    }
    const std::string& dir = config.image_dir;
    if (dir.size() >= sizeof start.image_dir) {
      throw std::invalid_argument("--images: the folder's path is too long for a worker process");
    }
    std::memcpy(start.image_dir, dir.data(), dir.size());
  }
  start.ring_slots = ring.size();
  const std::vector<std::uint64_t> sample = sample_words(config);
  try {
    for (std::size_t i = 0; i < config.workers; ++i) {
      spawn(program, i);
      start.worker = i;
      try {
        send_start(start, sample, ring);
      } catch (const std::system_error&) {  // EPIPE: it ended before its start arrived
        throw_ended(i, " before it started");
      }
    }
  } catch (...) {
    stop_all();
    throw;
  }
}

// One message carries kLoaderMaxFds descriptors: a larger ring follows the start in RingParts. A
// worker that does not read them holds the start only until a stop is requested.
void WorkerProcesses::send_start(const LoaderStart& start, const std::vector<std::uint64_t>& sample,
                                 const std::vector<SharedSegment>& ring) {
  const int socket = workers_.back().socket;
  const GiveUp give_up = [] { return stop_requested(); };
  std::size_t sent = 0;
  do {
    std::vector<int> fds;
    for (std::size_t slot = sent; slot < ring.size() && fds.size() < kLoaderMaxFds; ++slot) {
      fds.push_back(ring[slot].fd());
    }
    const RingPart part{sent};
    const bool delivered = sent == 0
                               ? send_packet(socket, &start, sizeof start, sample, fds, give_up)
                               : send_packet(socket, &part, sizeof part, {}, fds, give_up);
    if (!delivered) {
      throw RunInterrupted(fmt::format("interrupted by {} while starting loader worker {}",
                                       stop_requester(), start.worker));
    }
    sent += fds.size();
  } while (sent < ring.size());
}

void WorkerProcesses::spawn(const std::string& program, std::size_t index) {
  int ends[2];
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ends) != 0) {
    throw std::system_error(errno, std::generic_category(), "socketpair for a loader worker");
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  // dup2 clears close-on-exec on the copy: the child keeps its end, and nothing else of ours.
  posix_spawn_file_actions_adddup2(&actions, ends[1], kWorkerSocketFd);
  const std::string fd_text = std::to_string(kWorkerSocketFd);
  char* argv[] = {const_cast<char*>(program.c_str()), const_cast<char*>(fd_text.c_str()), nullptr};
  pid_t pid = -1;
  const int spawned = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  close(ends[1]);
  if (spawned != 0) {
    close(ends[0]);
    throw std::system_error(spawned, std::generic_category(),
                            fmt::format("starting loader worker {} ({})", index, program));
  }
  workers_.push_back(Worker{pid, ends[0]});
}

std::string WorkerProcesses::describe_end(std::size_t index) {
  Worker& worker = workers_.at(index);
  if (!worker.reaped) {
    // The stream ended because the process did: it is gone or about to be.
    for (int tries = 0; tries < 200 && !worker.reaped; ++tries) {
      const pid_t done = waitpid(worker.pid, &worker.status, WNOHANG);
      if (done == worker.pid) {
        worker.reaped = true;
        remove_stale_segments(worker.pid);
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
    }
  }
  return fmt::format("worker process {} (pid {}) {}", index, worker.pid,
                     worker.reaped ? describe_status(worker.status)
                                   : std::string("closed its socket and is still running"));
}

void WorkerProcesses::throw_ended(std::size_t index, const std::string& context) {
  const std::string end = describe_end(index);
  const Worker& worker = workers_[index];
  const bool stop_signal =
      worker.reaped && WIFSIGNALED(worker.status) &&
      (WTERMSIG(worker.status) == SIGINT || WTERMSIG(worker.status) == SIGTERM);
  // A worker killed by a stop signal (one started before it could ignore them): this process got
  // the same signal, and its handler may run a moment after the hang-up was seen.
  const auto grace = std::chrono::steady_clock::now() + std::chrono::milliseconds(500);
  while (stop_signal && !stop_requested() && std::chrono::steady_clock::now() < grace) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (stop_requested()) {
    throw RunInterrupted(fmt::format("interrupted by {} ({})", stop_requester(), end));
  }
  throw WorkerProcessDied(end + context);
}

void WorkerProcesses::stop_all() noexcept {
  for (Worker& worker : workers_) {
    if (worker.socket >= 0) {
      close(worker.socket);
      worker.socket = -1;
    }
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  for (Worker& worker : workers_) {
    while (!worker.reaped) {
      const pid_t done = waitpid(worker.pid, &worker.status, WNOHANG);
      if (done == worker.pid || done < 0) {
        worker.reaped = true;
      } else if (std::chrono::steady_clock::now() > deadline) {
        kill(worker.pid, SIGKILL);  // a worker deep in a batch: it holds nothing worth keeping
        waitpid(worker.pid, &worker.status, 0);
        worker.reaped = true;
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        continue;
      }
      remove_stale_segments(worker.pid);
    }
  }
}

WorkerProcesses::~WorkerProcesses() {
  stop_all();
}

}  // namespace h2d
