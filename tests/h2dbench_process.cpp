#include "tests/h2dbench_process.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace h2d_test {

std::string shell_quote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) {
    quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  }
  return quoted + "'";
}

std::filesystem::path scratch_folder(const std::string& name) {
  const std::filesystem::path folder = std::filesystem::temp_directory_path() /
                                       ("h2d_test_" + std::to_string(getpid()) + "_" + name);
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  return folder;
}

ProcessResult run_shell(const std::string& command) {
  static std::atomic<int> runs{0};
  const std::filesystem::path log =
      std::filesystem::temp_directory_path() /
      ("h2d_test_" + std::to_string(getpid()) + "_run" + std::to_string(runs++) + ".log");
  const int status = std::system((command + " > " + shell_quote(log.string()) + " 2>&1").c_str());
  ProcessResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(log);
  std::ostringstream text;
  text << in.rdbuf();
  result.output = text.str();
  std::filesystem::remove(log);
  return result;
}

ProcessResult run_h2dbench(const std::string& arguments, const std::string& environment) {
  return run_shell(environment + (environment.empty() ? "" : " ") + shell_quote(H2D_BINARY_PATH) +
                   " " + arguments);
}

}  // namespace h2d_test
