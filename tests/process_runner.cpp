#include "tests/process_runner.hpp"

#include <sys/wait.h>

#include <array>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "harness/core/bounded_file.hpp"

namespace h2d::testing {

ProcessResult run_process(const std::string& command_line) {
  ProcessResult result;
  const std::string full = command_line + " 2>&1";
  FILE* pipe = popen(full.c_str(), "r");
  if (pipe == nullptr) {
    throw std::runtime_error("cannot start: " + command_line);
  }
  std::array<char, 4096> buffer{};
  std::size_t got = 0;
  while ((got = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) {
    result.output.append(buffer.data(), got);
  }
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

namespace {
std::string from_environment(const char* name, const char* built) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? value : built;
}
}  // namespace

bool file_contains(const std::string& path, const std::string& text) {
  // One read of the whole file (a character-by-character iterator over the 170 MB ASan h2dbench
  // took 31 s at -O0, issue 29), within a cap no executable of ours comes near.
  const std::string bytes = read_bounded_file(path, "file", std::size_t{1} << 30);
  return bytes.find(text) != std::string::npos;
}

std::string h2dbench_path() {
  return from_environment("H2D_BINARY", H2D_BINARY_PATH);
}
std::string source_dir() {
  return from_environment("H2D_SOURCE_DIR", H2D_SOURCE_DIR);
}
std::string nvtx_recorder_path() {
  return from_environment("H2D_NVTX_RECORDER", H2D_NVTX_RECORDER_PATH);
}

std::string h2dbench() {
  return shell_quote(h2dbench_path());
}

std::string shell_quote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) {
    quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  }
  return quoted + "'";
}

TempDir::TempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "h2dtest-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) {
    throw std::runtime_error("mkdtemp failed");
  }
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace h2d::testing
