#include "harness/core/verification.hpp"

#include <fmt/format.h>

namespace h2d {

void verify_checksum(std::uint64_t actual, std::uint64_t expected, const std::string& what) {
  if (actual != expected) {
    throw VerificationError(
        fmt::format("{}: checksum {:016x}, expected {:016x}", what, actual, expected));
  }
}

}  // namespace h2d
