#pragma once

#include <cstddef>

namespace h2d {

// The smallest power of two >= `bytes`: the block size a caching pinned allocator (PyTorch's
// CachingHostAllocator, for one) reserves for a request. Throws std::invalid_argument for 0 and
// std::overflow_error when no power of two in std::size_t is large enough. Pure.
std::size_t round_up_pow2(std::size_t bytes);

// Bytes reserved but never asked for, in percent of the request: (rounded - bytes) / bytes * 100.
// 0 for powers of two, approaching 100 (twice the request pinned) just above one. Pure.
double rounding_waste_pct(std::size_t bytes);

}  // namespace h2d
