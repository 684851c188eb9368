#pragma once

#include <string>

namespace h2d::testing {

struct ProcessResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

// Runs a shell command line and collects its output and exit code.
ProcessResult run_process(const std::string& command_line);

// The h2dbench executable under test, quoted for a shell: $H2D_BINARY when set (a bundle run on
// another machine), else the one this build made.
std::string h2dbench();

// The source tree (fixtures, plots): $H2D_SOURCE_DIR when set, else this checkout.
std::string source_dir();

// A fresh empty folder under the system temp dir, removed when the object dies.
class TempDir {
 public:
  TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir();
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

}  // namespace h2d::testing
