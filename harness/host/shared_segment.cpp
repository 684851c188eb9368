#include "harness/host/shared_segment.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <fmt/format.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string_view>
#include <system_error>
#include <utility>

#include "harness/core/byte_size.hpp"
#include "harness/core/page_size.hpp"

namespace h2d {
namespace {

[[noreturn]] void throw_errno(int error, const std::string& what) {
  throw std::system_error(error, std::generic_category(), what);
}

}  // namespace

SharedSegment SharedSegment::create(std::size_t bytes) {
  static std::atomic<std::uint64_t> serial{0};
  const std::string name = fmt::format("/h2dbench.{}.{}", getpid(), serial.fetch_add(1));
  const int fd = shm_open(name.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    throw_errno(errno, "shm_open(" + name + ")");
  }
  shm_unlink(name.c_str());  // the descriptor keeps it alive; no name is left to leak
  SharedSegment segment(fd, bytes);
  const std::size_t length = page_rounded(bytes);
  if (ftruncate(fd, static_cast<off_t>(length)) != 0) {
    throw_errno(errno, fmt::format("ftruncate of a {}-byte shared-memory segment", length));
  }
  const int reserved = posix_fallocate(fd, 0, static_cast<off_t>(length));
  if (reserved == ENOSPC) {
    throw SharedMemoryFull(fmt::format(
        "/dev/shm is full: a {} segment did not fit ({} free; Docker's default is 64 MB, "
        "--shm-size raises it)",
        format_bytes(length), format_bytes(shared_memory_free_bytes())));
  }
  if (reserved != 0 && reserved != EINVAL && reserved != EOPNOTSUPP) {
    throw_errno(reserved, "posix_fallocate of a shared-memory segment");
  }
  return segment;
}

void SharedSegment::require_mappable() const {
  struct stat file {};
  if (fstat(fd_, &file) != 0) {
    throw_errno(errno, "fstat of a received shared-memory segment");
  }
  if (!S_ISREG(file.st_mode)) {
    throw std::runtime_error(
        "a descriptor that is not a shared-memory segment (not a regular file)");
  }
  const std::size_t needed = page_rounded(bytes_);
  if (file.st_size < 0 || static_cast<std::size_t>(file.st_size) < needed) {
    throw std::runtime_error(fmt::format(
        "a shared-memory segment of {} bytes where the batch needs {}", file.st_size, needed));
  }
}

SharedSegment::SharedSegment(SharedSegment&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), bytes_(std::exchange(other.bytes_, 0)) {}

SharedSegment& SharedSegment::operator=(SharedSegment&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) {
      close(fd_);
    }
    fd_ = std::exchange(other.fd_, -1);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

SharedSegment::~SharedSegment() {
  if (fd_ >= 0) {
    close(fd_);
  }
}

SharedMapping::SharedMapping(const SharedSegment& segment, bool populate)
    : bytes_(page_rounded(segment.size())) {
  void* at = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE,
                  MAP_SHARED | (populate ? MAP_POPULATE : 0), segment.fd(), 0);
  if (at == MAP_FAILED) {
    throw_errno(errno, fmt::format("mmap of a {}-byte shared-memory segment", bytes_));
  }
  data_ = static_cast<std::byte*>(at);
}

SharedMapping::SharedMapping(SharedMapping&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}

SharedMapping& SharedMapping::operator=(SharedMapping&& other) noexcept {
  if (this != &other) {
    if (data_ != nullptr) {
      munmap(data_, bytes_);
    }
    data_ = std::exchange(other.data_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

SharedMapping::~SharedMapping() {
  if (data_ != nullptr) {
    munmap(data_, bytes_);
  }
}

AddressReservation::AddressReservation(std::size_t bytes) : bytes_(page_rounded(bytes)) {
  void* at = mmap(nullptr, bytes_, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (at == MAP_FAILED) {
    throw_errno(errno, fmt::format("reserving {} of address space", format_bytes(bytes_)));
  }
  data_ = static_cast<std::byte*>(at);
}

AddressReservation::~AddressReservation() {
  munmap(data_, bytes_);
}

void AddressReservation::map_at(std::size_t offset, const SharedSegment& segment) {
  const std::size_t length = page_rounded(segment.size());
  if (offset % memory_page_size() != 0 || offset + length > bytes_) {
    throw std::out_of_range(fmt::format("a {}-byte segment at offset {} of a {}-byte reservation",
                                        length, offset, bytes_));
  }
  void* at = mmap(data_ + offset, length, PROT_READ | PROT_WRITE,
                  MAP_SHARED | MAP_FIXED | MAP_POPULATE, segment.fd(), 0);
  if (at == MAP_FAILED) {
    throw_errno(errno, "mmap (MAP_FIXED) of a received shared-memory segment");
  }
}

std::size_t remove_stale_segments(int pid) {
  constexpr std::string_view kPrefix = "h2dbench.";
  std::size_t removed = 0;
  DIR* dir = opendir("/dev/shm");
  if (dir == nullptr) {
    return 0;
  }
  while (const dirent* entry = readdir(dir)) {
    const std::string_view name(entry->d_name);
    if (name.substr(0, kPrefix.size()) != kPrefix) {
      continue;
    }
    const std::string_view rest = name.substr(kPrefix.size());
    const int owner = std::atoi(std::string(rest.substr(0, rest.find('.'))).c_str());
    const bool stale = pid != 0 ? owner == pid : owner > 0 && kill(owner, 0) != 0 && errno == ESRCH;
    if (owner > 0 && stale && shm_unlink(("/" + std::string(name)).c_str()) == 0) {
      ++removed;
    }
  }
  closedir(dir);
  return removed;
}

std::size_t shared_memory_free_bytes() {
  struct statvfs stats {};
  if (statvfs("/dev/shm", &stats) != 0) {
    return std::numeric_limits<std::size_t>::max();
  }
  return static_cast<std::size_t>(stats.f_bavail) * stats.f_frsize;
}

SharedMemoryFull shared_memory_full(std::size_t needed, const std::string& what) {
  return SharedMemoryFull(fmt::format(
      "{} needs {} of /dev/shm and it has {} free (Docker's default is 64 MB; --shm-size "
      "raises it)",
      what, format_bytes(needed), format_bytes(shared_memory_free_bytes())));
}

void require_shared_memory(std::size_t needed, const std::string& what) {
  if (needed > shared_memory_free_bytes()) {
    throw shared_memory_full(needed, what);
  }
}

}  // namespace h2d
