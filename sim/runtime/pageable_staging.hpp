#pragma once

#include <cstddef>
#include <memory>
#include <vector>

namespace h2d::sim {

// The rows a copy moves: `height` rows of `width` bytes, `pitch` bytes apart at each end
// (cudaMemcpy2D*; a plain copy is one row).
struct CopyShape {
  std::size_t width = 0, height = 1;
  std::size_t destination_pitch = 0, source_pitch = 0;
  std::size_t bytes() const { return width * height; }
  // Bytes spanned from the first to the last byte at each end.
  std::size_t destination_span() const {
    return height == 0 ? 0 : destination_pitch * (height - 1) + width;
  }
  std::size_t source_span() const { return height == 0 ? 0 : source_pitch * (height - 1) + width; }
};

void copy_rows(void* destination, const void* source, const CopyShape& shape);
// Bytes [begin, end) of such a copy, counted row after row: a copy that lands as it goes.
void copy_rows(void* destination, const void* source, const CopyShape& shape, std::size_t begin,
               std::size_t end);

// Runtime API "API synchronization behavior": "For transfers from pageable host memory to device
// memory, a stream sync is performed before the copy is initiated. The function will return once
// the pageable buffer has been copied to the staging memory for DMA transfer to device memory,
// but the DMA to final destination may not have completed." The driver's staging buffer is
// modelled as large enough for the whole copy: the caller's buffer is read now, at call time.
class StagedSource {
 public:
  StagedSource(const void* source, const CopyShape& shape);
  // Lands staged bytes [begin, end) (row after row) at `destination` in the shape's rows.
  void land(void* destination, std::size_t begin, std::size_t end) const;

 private:
  CopyShape shape_;
  std::shared_ptr<std::vector<unsigned char>> bytes_;
};

}  // namespace h2d::sim
