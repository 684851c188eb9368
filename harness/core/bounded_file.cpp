#include "harness/core/bounded_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "harness/core/owned_fd.hpp"
#include "harness/core/usage_error.hpp"

namespace h2d {
namespace {

std::string too_large(const std::string& path, const std::string& what, std::size_t max_bytes) {
  return fmt::format("{} '{}' is larger than {} MiB, the most h2dbench reads", what, path,
                     max_bytes >> 20);
}

}  // namespace

std::string read_bounded_file(const std::string& path, const std::string& what,
                              std::size_t max_bytes) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer before fstat can refuse it.
  OwnedFd file(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  if (file.get() < 0) {
    throw UsageError(fmt::format("{} '{}': {} (cannot open it)", what, path, std::strerror(errno)));
  }
  struct stat info {};
  if (::fstat(file.get(), &info) != 0) {
    throw UsageError(fmt::format("{} '{}': cannot read: {}", what, path, std::strerror(errno)));
  }
  if (S_ISDIR(info.st_mode)) {
    throw UsageError(fmt::format("{} '{}' is a folder; give a file", what, path));
  }
  if (!S_ISREG(info.st_mode)) {
    throw UsageError(fmt::format(
        "{} '{}' is a device, pipe or socket, not a file; save it to a file first", what, path));
  }
  if (static_cast<unsigned long long>(info.st_size) > max_bytes) {
    throw UsageError(too_large(path, what, max_bytes));
  }
  // Regular files never block; clear O_NONBLOCK anyway so a short read means end of file.
  ::fcntl(file.get(), F_SETFL, ::fcntl(file.get(), F_GETFL) & ~O_NONBLOCK);
  std::string text;
  text.reserve(static_cast<std::size_t>(info.st_size));
  char chunk[1 << 16];
  for (;;) {
    const ssize_t got = ::read(file.get(), chunk, sizeof chunk);
    if (got < 0) {
      if (errno == EINTR) {
        continue;
      }
      throw UsageError(fmt::format("{} '{}': cannot read: {}", what, path, std::strerror(errno)));
    }
    if (got == 0) {
      return text;
    }
    if (text.size() + static_cast<std::size_t>(got) > max_bytes) {
      throw UsageError(too_large(path, what, max_bytes));
    }
    text.append(chunk, static_cast<std::size_t>(got));
  }
}

}  // namespace h2d
