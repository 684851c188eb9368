#include "tests/h2dbench_process.hpp"

#include "tests/process_runner.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace h2d_test {

std::filesystem::path scratch_folder(const std::string& name) {
  const std::filesystem::path folder = std::filesystem::temp_directory_path() /
                                       ("h2d_test_" + std::to_string(getpid()) + "_" + name);
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  return folder;
}

ProcessResult run_shell(const std::string& command) {
  const h2d::testing::ProcessResult result = h2d::testing::run_process(command);
  return {result.exit_code, result.output};
}

ProcessResult run_h2dbench(const std::string& arguments, const std::string& environment) {
  return run_shell(environment + (environment.empty() ? "" : " ") + h2d::testing::h2dbench() + " " +
                   arguments);
}

}  // namespace h2d_test
