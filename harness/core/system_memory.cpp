#include "harness/core/system_memory.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

namespace h2d {

std::optional<std::size_t> parse_meminfo_available(const std::string& meminfo) {
  std::istringstream lines(meminfo);
  std::string key;
  std::size_t kib = 0;
  std::string unit;
  while (lines >> key >> kib) {
    std::getline(lines, unit);
    if (key == "MemAvailable:") {
      return kib * 1024;
    }
  }
  return std::nullopt;
}

std::size_t total_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  return pages > 0 && page_size > 0 ? static_cast<std::size_t>(pages) * page_size : 0;
}

std::size_t available_memory_bytes() {
  std::ifstream file("/proc/meminfo");
  std::stringstream text;
  text << file.rdbuf();
  return parse_meminfo_available(text.str()).value_or(total_memory_bytes());
}

std::optional<std::size_t> memlock_limit_bytes() {
  rlimit limit{};
  if (getrlimit(RLIMIT_MEMLOCK, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) {
    return std::nullopt;
  }
  return static_cast<std::size_t>(limit.rlim_cur);
}

}  // namespace h2d
