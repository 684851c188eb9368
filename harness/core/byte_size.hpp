#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace h2d {

// "64MiB", "4KiB", "1GiB", "1536B": the exact binary unit when the size has one, for case names.
std::string format_bytes(std::size_t bytes);

// Parses "64MiB", "64M", "1g", "4096", "1.5GiB" (binary units; K/M/G/T mean KiB/MiB/GiB/TiB).
// Throws std::invalid_argument with a message saying what would be valid.
std::size_t parse_bytes(std::string_view text);

// Decimal gigabytes per second (1e9 bytes), as PCIe and nvbandwidth count.
double gb_per_s(double bytes, double seconds);

}  // namespace h2d
