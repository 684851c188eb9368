#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace h2d {

// MemAvailable from /proc/meminfo (what can be taken without swapping), or the physical total
// when the kernel does not report it.
std::size_t available_memory_bytes();
std::size_t total_memory_bytes();

// Parses the "MemAvailable:" line of a /proc/meminfo text; nullopt when absent. Pure, for tests.
std::optional<std::size_t> parse_meminfo_available(const std::string& meminfo);

// RLIMIT_MEMLOCK in bytes, nullopt when unlimited. Reported in the context: the NVIDIA driver
// pins through its own kernel module, so this limit does not bound cudaHostAlloc, but users ask.
std::optional<std::size_t> memlock_limit_bytes();

}  // namespace h2d
