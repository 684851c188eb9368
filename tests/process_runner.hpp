#pragma once

#include <string>

namespace h2d::testing {

struct ProcessResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

// Runs a shell command line and collects its output and exit code.
ProcessResult run_process(const std::string& command_line);

// Paths the tests need, each from an environment variable when set (a bundle run on another
// machine, see scripts/device-check), else from this build:
// the h2dbench executable ($H2D_BINARY), the source tree for fixtures, plots and scripts
// ($H2D_SOURCE_DIR), the NVTX recorder library ($H2D_NVTX_RECORDER).
std::string h2dbench_path();
// Whether the file at `path` holds the bytes `text` (a symbol name in a program, say).
bool file_contains(const std::string& path, const std::string& text);
std::string source_dir();
std::string nvtx_recorder_path();

// h2dbench_path() quoted for a shell.
std::string h2dbench();

// Single-quotes `text` for a shell.
std::string shell_quote(const std::string& text);

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
