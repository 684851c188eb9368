#include "harness/core/page_size.hpp"

#include <unistd.h>

#include <fmt/format.h>

#include <cstdlib>
#include <stdexcept>
#include <string>

namespace h2d {

std::size_t memory_page_size() {
  const auto machine = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  const char* text = std::getenv(kTestPageSizeVariable);
  if (text == nullptr || *text == '\0') {
    return machine;
  }
  char* end = nullptr;
  const unsigned long long value = std::strtoull(text, &end, 10);
  if (*end != '\0' || value == 0 || (value & (value - 1)) != 0 || value % machine != 0) {
    throw std::invalid_argument(fmt::format(
        "{}={}: valid is a power of two that is a multiple of this machine's page size ({})",
        kTestPageSizeVariable, text, machine));
  }
  return static_cast<std::size_t>(value);
}

std::size_t page_rounded(std::size_t bytes) {
  const std::size_t page = memory_page_size();
  return (bytes + page - 1) / page * page;
}

}  // namespace h2d
