#include "tests/h2dbench_process.hpp"

#include "tests/process_runner.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <system_error>
#include <vector>

namespace h2d_test {
namespace {

// The scratch folders this test program made, removed when it ends: a test that stops at a failed
// ASSERT leaves none behind, and each ctest process (a new pid) would otherwise leave its own.
class ScratchFolders {
 public:
  ScratchFolders() = default;
  ScratchFolders(const ScratchFolders&) = delete;
  ScratchFolders& operator=(const ScratchFolders&) = delete;
  ~ScratchFolders() {
    // A forked child that exits through exit() runs this too: only the owner removes.
    if (getpid() != owner_) {
      return;
    }
    for (const std::filesystem::path& folder : folders_) {
      std::error_code ignored;
      std::filesystem::remove_all(folder, ignored);
    }
  }
  void add(const std::filesystem::path& folder) { folders_.push_back(folder); }

 private:
  pid_t owner_ = getpid();
  std::vector<std::filesystem::path> folders_;
};

ScratchFolders& scratch_folders() {
  static ScratchFolders folders;
  return folders;
}

}  // namespace

std::filesystem::path scratch_folder(const std::string& name) {
  const std::filesystem::path folder = std::filesystem::temp_directory_path() /
                                       ("h2d_test_" + std::to_string(getpid()) + "_" + name);
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  scratch_folders().add(folder);
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
