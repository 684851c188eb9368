#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

namespace h2d {

// Where a decoded image starts, past a 4 KiB boundary. libjpeg-turbo's decode rate depends on it
// (on an AVX-512 Xeon, 32 bytes past a 64-byte boundary decoded ~30% slower with the fast options
// than 16 past it: docs/decode.md), so decode outputs are placed on purpose, not wherever the
// allocator happens to put them.
enum class OutputPlacement {
  malloc,     // 16 B past: where glibc's malloc starts a large block (tjbench, numpy, Pillow)
  aligned64,  // 64 B past: a 64-byte aligned allocation (PyTorch's CPU tensors)
};

std::string_view to_string(OutputPlacement placement);
std::size_t page_offset(OutputPlacement placement);

// Zeroed memory for `bytes` of decoded pixels starting at `placement` (zeroed so the first touch
// happens here, outside any timing). Movable, not copyable.
class DecodedPixels {
 public:
  explicit DecodedPixels(std::size_t bytes, OutputPlacement placement = OutputPlacement::malloc);

  std::uint8_t* data() { return storage_.get() + offset_; }
  const std::uint8_t* data() const { return storage_.get() + offset_; }
  std::size_t size() const { return bytes_; }

 private:
  struct PageAlignedDelete {
    void operator()(std::uint8_t* pointer) const;
  };
  std::unique_ptr<std::uint8_t[], PageAlignedDelete> storage_;
  std::size_t offset_;
  std::size_t bytes_;
};

}  // namespace h2d
