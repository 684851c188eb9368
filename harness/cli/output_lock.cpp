#include "harness/cli/output_lock.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "harness/core/usage_error.hpp"

namespace h2d {
namespace {

// The pid the holder wrote into the lock file, or "?".
std::string holder_of(int fd) {
  char text[32] = {};
  const ssize_t got = pread(fd, text, sizeof(text) - 1, 0);
  const std::string pid = got > 0 ? std::string(text, static_cast<std::size_t>(got)) : "";
  return pid.empty() ? std::string("?") : pid;
}

}  // namespace

OutputLock::OutputLock(const std::string& path, const std::string& flag)
    : lock_path_(path + ".lock") {
  // A holder that finishes removes the file; one that locked it after we opened it holds a file
  // no longer at the path. Lock, then check that the file locked is the one the path names.
  for (int attempt = 0; attempt < 5; ++attempt) {
    fd_ = open(lock_path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) {
      throw UsageError(fmt::format("{} '{}': cannot create the lock file '{}': {}", flag, path,
                                   lock_path_, std::strerror(errno)));
    }
    if (flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      const int error = errno;
      const std::string holder = holder_of(fd_);
      close(fd_);
      fd_ = -1;
      if (error == EWOULDBLOCK) {
        throw UsageError(fmt::format(
            "{} '{}' is being written by another h2dbench (pid {}); wait for it to finish or "
            "give another path",
            flag, path, holder));
      }
      throw UsageError(fmt::format("{} '{}': cannot lock '{}': {}", flag, path, lock_path_,
                                   std::strerror(error)));
    }
    struct stat held {};
    struct stat named {};
    if (fstat(fd_, &held) == 0 && stat(lock_path_.c_str(), &named) == 0 &&
        held.st_dev == named.st_dev && held.st_ino == named.st_ino) {
      const std::string pid = std::to_string(static_cast<long>(getpid()));
      if (ftruncate(fd_, 0) != 0 || pwrite(fd_, pid.data(), pid.size(), 0) < 0) {
        // The pid is only for the message a second run prints; the lock holds without it.
      }
      return;
    }
    close(fd_);
    fd_ = -1;
  }
  throw UsageError(
      fmt::format("{} '{}': cannot lock '{}': it keeps changing", flag, path, lock_path_));
}

OutputLock::~OutputLock() {
  if (fd_ >= 0) {
    unlink(lock_path_.c_str());  // while still held: a waiting run then locks a new file
    close(fd_);
  }
}

}  // namespace h2d
