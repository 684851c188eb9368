#include "harness/host/huge_pages.hpp"

#include <fmt/format.h>

#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <system_error>

#include "harness/core/case_skipped.hpp"

namespace h2d {
namespace {

constexpr char kThpSetting[] = "/sys/kernel/mm/transparent_hugepage/enabled";

// A /proc/meminfo field in kB, 0 when absent.
std::size_t meminfo_kib(const std::string& field) {
  std::ifstream meminfo("/proc/meminfo");
  std::string name;
  std::size_t value = 0;
  while (meminfo >> name >> value) {
    if (name == field + ":") {
      return value;
    }
    meminfo.ignore(256, '\n');
  }
  return 0;
}

// The bracketed choice of the THP setting ("always [madvise] never" -> "madvise"), "" unreadable.
std::string thp_setting() {
  std::ifstream file(kThpSetting);
  std::string line;
  std::getline(file, line);
  const auto open = line.find('[');
  const auto close = line.find(']', open);
  return open == std::string::npos || close == std::string::npos
             ? std::string()
             : line.substr(open + 1, close - open - 1);
}

std::size_t rounded_up(std::size_t bytes, std::size_t unit) {
  return (bytes + unit - 1) / unit * unit;
}

}  // namespace

std::string_view to_string(HugePageSource source) {
  return source == HugePageSource::hugetlb ? "hugetlb" : "transparent";
}

std::size_t huge_page_bytes() {
  return meminfo_kib("Hugepagesize") * 1024;
}

HugePageBuffer::HugePageBuffer(std::size_t bytes) : bytes_(bytes) {
  const std::size_t page = huge_page_bytes();
  if (bytes == 0 || page == 0) {
    throw CaseSkipped(
        "pages=huge: this kernel reports no huge page size (Hugepagesize in "
        "/proc/meminfo)");
  }
  const std::size_t rounded = rounded_up(bytes, page);
  if (meminfo_kib("HugePages_Free") * 1024 >= rounded) {
    void* pointer = mmap(nullptr, rounded, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
    if (pointer != MAP_FAILED) {
      mapping_ = data_ = static_cast<std::byte*>(pointer);
      mapped_ = rounded;
      source_ = HugePageSource::hugetlb;
    }
  }
  if (mapping_ == nullptr) {
    const std::string thp = thp_setting();
    if (thp.empty() || thp == "never") {
      throw CaseSkipped(fmt::format(
          "pages=huge: no hugetlbfs pages free for {} bytes (HugePages_Free {}) and transparent "
          "huge pages are {} ({})",
          rounded, meminfo_kib("HugePages_Free"), thp.empty() ? "unknown" : "off", kThpSetting));
    }
    // One huge page more than needed, so the buffer can start on a huge-page boundary.
    mapped_ = rounded + page;
    void* pointer =
        mmap(nullptr, mapped_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (pointer == MAP_FAILED) {
      throw std::system_error(errno, std::generic_category(),
                              fmt::format("mmap of {} bytes for huge pages", mapped_));
    }
    mapping_ = static_cast<std::byte*>(pointer);
    const auto address = reinterpret_cast<std::uintptr_t>(mapping_);
    data_ = mapping_ + (rounded_up(address, page) - address);
    if (madvise(data_, rounded, MADV_HUGEPAGE) != 0) {
      const int error = errno;
      munmap(mapping_, mapped_);
      throw CaseSkipped(
          fmt::format("pages=huge: madvise(MADV_HUGEPAGE) refused: {}", std::strerror(error)));
    }
  }
  std::memset(data_, 0, rounded);  // every page backed now, huge where the kernel can
}

HugePageBuffer::HugePageBuffer(HugePageBuffer&& other) noexcept
    : mapping_(other.mapping_),
      mapped_(other.mapped_),
      data_(other.data_),
      bytes_(other.bytes_),
      source_(other.source_) {
  other.mapping_ = nullptr;
  other.data_ = nullptr;
}

HugePageBuffer::~HugePageBuffer() {
  if (mapping_ != nullptr) {
    munmap(mapping_, mapped_);
  }
}

std::size_t anon_huge_page_bytes(const void* address) {
  std::ifstream smaps("/proc/self/smaps");
  const auto wanted = reinterpret_cast<std::uintptr_t>(address);
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    // A mapping's first line is its range ("7f12...-7f13... rw-p ..."), its fields "Name: value".
    std::uintptr_t low = 0;
    std::uintptr_t high = 0;
    char dash = 0;
    std::istringstream range(line);
    if (line.find(':') > line.find(' ') && range >> std::hex >> low >> dash >> high &&
        dash == '-') {
      inside = low <= wanted && wanted < high;
      continue;
    }
    std::size_t kib = 0;
    if (inside && std::sscanf(line.c_str(), "AnonHugePages: %zu kB", &kib) == 1) {
      return kib * 1024;
    }
  }
  return 0;
}

double HugePageBuffer::huge_pct() const {
  if (source_ == HugePageSource::hugetlb) {
    return 100;
  }
  // madvise split the buffer off into a mapping of its own, which starts at data_. A neighbouring
  // one the kernel merged in could add its pages: at most all of them.
  const double rounded = static_cast<double>(rounded_up(bytes_, huge_page_bytes()));
  const double huge = static_cast<double>(anon_huge_page_bytes(data_));
  return rounded > 0 ? std::min(100.0, 100.0 * huge / rounded) : 0;
}

}  // namespace h2d
