#pragma once

#include <cstddef>

namespace h2d {

// The shape of a staging ring: D slots of C bytes, filled by T host threads.
struct RingShape {
  std::size_t chunk_bytes = std::size_t{4} << 20;  // C: bytes per slot
  std::size_t depth = 2;                           // D: slots; 2 or more overlap fill and copy
  std::size_t threads = 1;                         // T: host threads filling each slot

  friend bool operator==(const RingShape& a, const RingShape& b) {
    return a.chunk_bytes == b.chunk_bytes && a.depth == b.depth && a.threads == b.threads;
  }
  friend bool operator!=(const RingShape& a, const RingShape& b) { return !(a == b); }
};

}  // namespace h2d
