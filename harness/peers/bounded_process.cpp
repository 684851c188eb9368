#include "harness/peers/bounded_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <thread>

#include "harness/core/owned_fd.hpp"
#include "harness/core/stop_signal.hpp"

namespace h2d {
namespace {

bool is_executable_file(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
         ::access(path.c_str(), X_OK) == 0;
}

}  // namespace

std::string find_program(const std::string& program) {
  if (program.empty()) {
    return {};
  }
  if (program.find('/') != std::string::npos) {
    return is_executable_file(program) ? program : std::string();
  }
  const char* path = std::getenv("PATH");
  std::string folders = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= folders.size()) {
    const std::size_t colon = folders.find(':', start);
    std::string folder =
        folders.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
    if (folder.empty()) {
      folder = ".";
    }
    if (const std::string candidate = folder + "/" + program; is_executable_file(candidate)) {
      return candidate;
    }
    if (colon == std::string::npos) {
      break;
    }
    start = colon + 1;
  }
  return {};
}

namespace {

// The child's environment: this process's, with `overrides` ("NAME=value") replacing or adding
// theirs. Built before the fork: the child only calls exec.
std::vector<std::string> child_environment(const std::vector<std::string>& overrides) {
  std::vector<std::string> entries;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string text(*entry);
    const std::string name = text.substr(0, text.find('='));
    const bool replaced = std::any_of(overrides.begin(), overrides.end(), [&](const auto& o) {
      return o.compare(0, name.size() + 1, name + "=") == 0;
    });
    if (!replaced) {
      entries.push_back(text);
    }
  }
  entries.insert(entries.end(), overrides.begin(), overrides.end());
  return entries;
}

std::vector<char*> pointers_to(const std::vector<std::string>& words) {
  std::vector<char*> pointers;
  pointers.reserve(words.size() + 1);
  for (const std::string& word : words) {
    pointers.push_back(const_cast<char*>(word.c_str()));
  }
  pointers.push_back(nullptr);
  return pointers;
}

}  // namespace

ProcessOutcome run_bounded(const std::vector<std::string>& argv, std::chrono::milliseconds limit,
                           const std::vector<std::string>& environment,
                           std::size_t max_output_bytes) {
  using Clock = std::chrono::steady_clock;
  ProcessOutcome outcome;
  const std::string program = find_program(argv.empty() ? std::string() : argv.front());
  if (program.empty()) {
    outcome.output = fmt::format("'{}' not found", argv.empty() ? "" : argv.front());
    return outcome;
  }
  std::array<int, 2> pipe_fds{};
  if (::pipe2(pipe_fds.data(), O_CLOEXEC) != 0) {
    outcome.output = fmt::format("pipe: {}", std::strerror(errno));
    return outcome;
  }
  OwnedFd read_end(pipe_fds[0]);
  OwnedFd write_end(pipe_fds[1]);
  std::vector<char*> args = pointers_to(argv);
  const std::vector<std::string> env_words = child_environment(environment);
  std::vector<char*> env = pointers_to(env_words);
  const auto started = Clock::now();
  const pid_t child = ::fork();
  if (child < 0) {
    outcome.output = fmt::format("fork: {}", std::strerror(errno));
    return outcome;
  }
  if (child == 0) {
    // Its own process group, so a kill at the bound reaches what it started too.
    ::setpgid(0, 0);
    ::dup2(write_end.get(), STDOUT_FILENO);
    ::dup2(write_end.get(), STDERR_FILENO);
    const int null_in = ::open("/dev/null", O_RDONLY);
    if (null_in >= 0) {
      ::dup2(null_in, STDIN_FILENO);
    }
    ::execve(program.c_str(), args.data(), env.data());
    ::_exit(127);
  }
  ::setpgid(child, child);  // also here: the kill below must not race the child's own call
  write_end.reset();
  const auto deadline = started + limit;
  // Why it was killed, when it was: its bound, or Ctrl-C / SIGTERM to h2dbench (the peer is in a
  // group of its own, so the terminal's signal does not reach it: h2dbench ends it).
  std::optional<ProcessEnding> killed;
  const auto kill_when_due = [&] {
    if (stop_requested()) {
      killed = ProcessEnding::interrupted;
    } else if (Clock::now() >= deadline) {
      killed = ProcessEnding::killed_at_limit;
    } else {
      return false;
    }
    ::kill(-child, SIGKILL);
    return true;
  };
  std::array<char, 65536> buffer{};
  bool open = true;
  int status = 0;
  bool reaped = false;
  while (!reaped) {
    if (kill_when_due()) {
      break;
    }
    if (!open) {
      // Every writer closed, but the peer may still run (a wrapper that closed its output): its
      // exit is awaited within the bound too, never blocking.
      const pid_t done = ::waitpid(child, &status, WNOHANG);
      reaped = done == child;
      if (!reaped) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
      continue;
    }
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    pollfd waiting{read_end.get(), POLLIN, 0};
    const int ready =
        ::poll(&waiting, 1, static_cast<int>(std::clamp<long long>(left.count(), 0, 200)));
    if (ready <= 0) {
      open = !(ready < 0 && errno != EINTR);  // a failed poll: only its exit is left to wait for
      continue;
    }
    const ssize_t got = ::read(read_end.get(), buffer.data(), buffer.size());
    if (got < 0 && errno == EINTR) {
      continue;
    }
    if (got <= 0) {
      open = false;  // every writer closed: the peer is done, or about to be
      continue;
    }
    const std::size_t room = max_output_bytes - std::min(max_output_bytes, outcome.output.size());
    outcome.output.append(buffer.data(), std::min(room, static_cast<std::size_t>(got)));
  }
  read_end.reset();
  if (!reaped) {
    while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {  // killed: it ends now
    }
  }
  ::kill(-child, SIGKILL);  // what it left running in its group must not outlive it
  outcome.elapsed_s = std::chrono::duration<double>(Clock::now() - started).count();
  if (killed) {
    outcome.ending = *killed;
  } else if (WIFEXITED(status)) {
    outcome.ending = ProcessEnding::exited;
    outcome.exit_code = WEXITSTATUS(status);
  } else {
    outcome.ending = ProcessEnding::signalled;
    outcome.exit_code = WIFSIGNALED(status) ? WTERMSIG(status) : -1;
  }
  return outcome;
}

std::string describe_ending(const ProcessOutcome& outcome, std::chrono::milliseconds limit) {
  switch (outcome.ending) {
    case ProcessEnding::exited:
      return fmt::format("exited with code {}", outcome.exit_code);
    case ProcessEnding::killed_at_limit:
      return fmt::format("killed after {:g} s (its time bound)",
                         std::chrono::duration<double>(limit).count());
    case ProcessEnding::signalled:
      return fmt::format("ended by signal {}", outcome.exit_code);
    case ProcessEnding::interrupted:
      return "stopped: h2dbench was interrupted (Ctrl-C or SIGTERM)";
    case ProcessEnding::could_not_start:
      break;
  }
  return "could not start: " + outcome.output;
}

std::string command_text(const std::vector<std::string>& argv) {
  std::string text;
  for (const std::string& word : argv) {
    if (!text.empty()) {
      text += ' ';
    }
    const bool plain =
        !word.empty() && word.find_first_of(" \t'\"\\$`;&|<>()*?") == std::string::npos;
    if (plain) {
      text += word;
    } else {
      text += "'";
      for (char c : word) {
        text += c == '\'' ? std::string("'\\''") : std::string(1, c);
      }
      text += "'";
    }
  }
  return text;
}

}  // namespace h2d
