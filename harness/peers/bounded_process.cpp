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

#include "harness/core/owned_fd.hpp"

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

ProcessOutcome run_bounded(const std::vector<std::string>& argv, std::chrono::milliseconds limit,
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
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const std::string& word : argv) {
    args.push_back(const_cast<char*>(word.c_str()));
  }
  args.push_back(nullptr);
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
    ::execv(program.c_str(), args.data());
    ::_exit(127);
  }
  ::setpgid(child, child);  // also here: the kill below must not race the child's own call
  write_end.reset();
  const auto deadline = started + limit;
  bool killed = false;
  std::array<char, 65536> buffer{};
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) {
      ::kill(-child, SIGKILL);
      killed = true;
      break;
    }
    pollfd waiting{read_end.get(), POLLIN, 0};
    const int ready =
        ::poll(&waiting, 1, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (ready < 0 && errno != EINTR) {
      ::kill(-child, SIGKILL);
      killed = true;
      break;
    }
    if (ready <= 0) {
      continue;
    }
    const ssize_t got = ::read(read_end.get(), buffer.data(), buffer.size());
    if (got < 0 && errno == EINTR) {
      continue;
    }
    if (got <= 0) {
      break;  // every writer closed: the peer (and whatever it started) is done
    }
    const std::size_t room = max_output_bytes - std::min(max_output_bytes, outcome.output.size());
    outcome.output.append(buffer.data(), std::min(room, static_cast<std::size_t>(got)));
  }
  read_end.reset();
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (!killed) {
    ::kill(-child, SIGKILL);  // what it left running in its group must not outlive the bound
  }
  outcome.elapsed_s = std::chrono::duration<double>(Clock::now() - started).count();
  if (killed) {
    outcome.ending = ProcessEnding::killed_at_limit;
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
