#include "sim/runtime/pageable_staging.hpp"

#include <algorithm>
#include <cstring>

namespace h2d::sim {

void copy_rows(void* destination, const void* source, const CopyShape& shape) {
  copy_rows(destination, source, shape, 0, shape.bytes());
}

void copy_rows(void* destination, const void* source, const CopyShape& shape, std::size_t begin,
               std::size_t end) {
  auto* to = static_cast<unsigned char*>(destination);
  const auto* from = static_cast<const unsigned char*>(source);
  for (std::size_t at = begin; at < end;) {
    const std::size_t row = at / shape.width;
    const std::size_t column = at % shape.width;
    const std::size_t count = std::min(shape.width - column, end - at);
    std::memcpy(to + row * shape.destination_pitch + column,
                from + row * shape.source_pitch + column, count);
    at += count;
  }
}

StagedSource::StagedSource(const void* source, const CopyShape& shape)
    : shape_(shape), bytes_(std::make_shared<std::vector<unsigned char>>(shape.bytes())) {
  CopyShape packed = shape;
  packed.destination_pitch = shape.width;
  copy_rows(bytes_->data(), source, packed);
}

void StagedSource::land(void* destination, std::size_t begin, std::size_t end) const {
  CopyShape packed = shape_;
  packed.source_pitch = shape_.width;
  copy_rows(destination, bytes_->data(), packed, begin, end);
}

}  // namespace h2d::sim
