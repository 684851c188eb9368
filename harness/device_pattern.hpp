#pragma once

#include <cstddef>
#include <cstdint>

#include "harness/stream.hpp"

namespace h2d {

// Device side of harness/checksum.hpp. Both synchronize `stream` before returning.
void device_fill_pattern(void* data, std::size_t bytes, std::uint64_t seed, const Stream& stream);
std::uint64_t device_checksum(const void* data, std::size_t bytes, const Stream& stream);

}  // namespace h2d
