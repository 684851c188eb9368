#pragma once

#include <string>

namespace h2d {

// Held while a run writes a file (its report, its trace), so that a second h2dbench given the
// same path stops at once with a UsageError instead of measuring alongside the first one (both
// measurements would suffer) and then silently replacing its report. An flock on "<path>.lock":
// the kernel releases it if the process dies, and the holder removes the file when done.
class OutputLock {
 public:
  // `flag` names the option the path came from (--out, --trace) in messages.
  OutputLock(const std::string& path, const std::string& flag);
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;
  ~OutputLock();

  const std::string& lock_path() const { return lock_path_; }

 private:
  std::string lock_path_;
  int fd_ = -1;
};

}  // namespace h2d
