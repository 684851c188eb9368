#pragma once

// Warp shuffles and barriers (Programming Guide, "Warp Shuffle Functions", "Synchronization
// Functions"). The lanes of a warp meet at each call: the grid runner runs them as cooperative
// fibers, and a lane that reaches a shuffle waits there until every live lane of its warp has
// deposited its value, as the warp-synchronous _sync intrinsics require.

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "sim/device/builtin_variables.hpp"

namespace h2d::sim {
// The value of lane (this lane + delta) of this warp's segment of `width` lanes at this same
// call, or the caller's own value when that lane lies outside the segment.
std::uint64_t warp_shuffle_down(unsigned mask, std::uint64_t value, unsigned delta, int width);
void warp_barrier(unsigned mask);
void block_barrier();
}  // namespace h2d::sim

template <typename T>
T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = warpSize) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= sizeof(std::uint64_t),
                "__shfl_down_sync moves values of up to 64 bits");
  std::uint64_t bits = 0;
  std::memcpy(&bits, &var, sizeof(T));
  bits = h2d::sim::warp_shuffle_down(mask, bits, delta, width);
  T result;
  std::memcpy(&result, &bits, sizeof(T));
  return result;
}

inline void __syncwarp(unsigned mask = 0xffffffffu) {
  h2d::sim::warp_barrier(mask);
}

inline void __syncthreads() {
  h2d::sim::block_barrier();
}
