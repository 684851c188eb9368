#include "harness/cuda/huge_host_buffer.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace h2d {

HugeHostBuffer::HugeHostBuffer(HostKind kind, std::size_t bytes) : pages_(bytes) {
  if (kind != HostKind::pageable && kind != HostKind::registered) {
    throw std::invalid_argument(
        fmt::format("pages=huge takes pageable or registered memory, not {}", to_string(kind)));
  }
  if (kind == HostKind::registered) {
    reservation_ = pinned_budget().reserve(bytes, "a registered host buffer on huge pages");
    registration_ = HostRegistration(pages_.data(), bytes);
  }
}

}  // namespace h2d
