#include "tests/child_process.hpp"

#include <dirent.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "tests/process_runner.hpp"

extern char** environ;

namespace h2d::testing {
namespace {

struct Child {
  pid_t pid = -1;
  std::string output_path;
};

Child spawn(const std::vector<std::string>& args, bool own_group = false) {
  char path_template[] = "/tmp/h2d_child_XXXXXX";
  const int fd = mkstemp(path_template);
  if (fd < 0) {
    throw std::runtime_error("mkstemp failed");
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fd, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, fd, STDERR_FILENO);
  const std::string program = h2dbench_path();
  std::vector<std::string> words{program};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& word : words) {
    argv.push_back(word.data());
  }
  argv.push_back(nullptr);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  if (own_group) {
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);
  }
  Child child;
  child.output_path = path_template;
  const int rc =
      posix_spawn(&child.pid, program.c_str(), &actions, &attributes, argv.data(), environ);
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  close(fd);
  if (rc != 0) {
    throw std::runtime_error("posix_spawn of " + program + " failed");
  }
  return child;
}

ChildResult wait_for(const Child& child) {
  int status = 0;
  waitpid(child.pid, &status, 0);
  ChildResult result;
  if (WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.signal = WTERMSIG(status);
  }
  std::ifstream in(child.output_path);
  std::stringstream text;
  text << in.rdbuf();
  result.output = text.str();
  std::remove(child.output_path.c_str());
  return result;
}

// Whether `pid` has a handler for `signal_number` (the SigCgt mask of /proc/PID/status).
bool catches(pid_t pid, int signal_number) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("SigCgt:", 0) == 0) {
      const unsigned long long mask = std::strtoull(line.c_str() + 7, nullptr, 16);
      return (mask >> (signal_number - 1)) & 1u;
    }
  }
  return false;
}

// A process whose parent is `parent` and whose comm name starts `program`'s, or 0.
pid_t child_running(pid_t parent, const std::string& program) {
  const std::string comm = program.substr(0, 15);
  DIR* proc = opendir("/proc");
  pid_t found = 0;
  while (const dirent* entry = proc != nullptr ? readdir(proc) : nullptr) {
    const pid_t pid = std::atoi(entry->d_name);
    if (pid <= 0) {
      continue;
    }
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    std::getline(stat, line);
    const std::size_t open = line.find('(');
    const std::size_t close = line.rfind(')');
    if (open == std::string::npos || close == std::string::npos) {
      continue;
    }
    std::istringstream rest(line.substr(close + 2));
    std::string state;
    pid_t ppid = 0;
    rest >> state >> ppid;
    if (ppid == parent && line.substr(open + 1, close - open - 1) == comm) {
      found = pid;
      break;
    }
  }
  if (proc != nullptr) {
    closedir(proc);
  }
  return found;
}

// Waits (up to 60 s) for a process `child` started that runs `program`: its pid, or 0.
pid_t wait_for_a_child_running(const Child& child, const std::string& program) {
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  pid_t found = 0;
  while (found == 0 && std::chrono::steady_clock::now() < give_up) {
    found = child_running(child.pid, program);
    if (found == 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  return found;
}

}  // namespace

ChildResult signal_a_child_of_h2dbench(const std::vector<std::string>& args,
                                       const std::string& program, int signal_number,
                                       int* signalled) {
  const Child child = spawn(args);
  *signalled = wait_for_a_child_running(child, program);
  if (*signalled != 0) {
    kill(*signalled, signal_number);
  }
  return wait_for(child);
}

ChildResult signal_h2dbench_group_once_running(const std::vector<std::string>& args,
                                               const std::string& program, int signal_number,
                                               int delay_ms, bool* appeared) {
  const Child child = spawn(args, /*own_group=*/true);
  *appeared = wait_for_a_child_running(child, program) != 0;
  std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
  kill(-child.pid, signal_number);
  return wait_for(child);
}

ChildResult run_h2dbench(const std::vector<std::string>& args) {
  return wait_for(spawn(args));
}

// Waits (up to 60 s) until `child` catches SIGINT, then `delay_ms` more.
void wait_until_it_catches_sigint(const Child& child, int delay_ms) {
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!catches(child.pid, SIGINT) && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
}

ChildResult interrupt_h2dbench_group(const std::vector<std::string>& args, int delay_ms) {
  const Child child = spawn(args, /*own_group=*/true);
  wait_until_it_catches_sigint(child, delay_ms);
  kill(-child.pid, SIGINT);
  return wait_for(child);
}

ChildResult interrupt_h2dbench(const std::vector<std::string>& args, int delay_ms, int signals,
                               int gap_ms) {
  const Child child = spawn(args);
  wait_until_it_catches_sigint(child, delay_ms);
  for (int i = 0; i < signals; ++i) {
    if (i > 0) {  // signals sent back to back merge into one while the first is pending
      std::this_thread::sleep_for(std::chrono::milliseconds(gap_ms));
    }
    kill(child.pid, SIGINT);
  }
  return wait_for(child);
}

}  // namespace h2d::testing
