#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace h2d {

// The data that arrived is not the data that was sent: the case fails, and the run with it.
class VerificationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws VerificationError naming `what` when the checksums differ.
void verify_checksum(std::uint64_t actual, std::uint64_t expected, const std::string& what);

}  // namespace h2d
