#include "sim/runtime/pageable_staging.hpp"

#include <cstring>

namespace h2d::sim {

void copy_rows(void* destination, const void* source, const CopyShape& shape) {
  auto* to = static_cast<unsigned char*>(destination);
  const auto* from = static_cast<const unsigned char*>(source);
  for (std::size_t row = 0; row < shape.height; ++row) {
    std::memcpy(to + row * shape.destination_pitch, from + row * shape.source_pitch, shape.width);
  }
}

StagedSource::StagedSource(const void* source, const CopyShape& shape)
    : shape_(shape), bytes_(std::make_shared<std::vector<unsigned char>>(shape.bytes())) {
  CopyShape packed = shape;
  packed.destination_pitch = shape.width;
  copy_rows(bytes_->data(), source, packed);
}

void StagedSource::land(void* destination) const {
  CopyShape packed = shape_;
  packed.source_pitch = shape_.width;
  copy_rows(destination, bytes_->data(), packed);
}

}  // namespace h2d::sim
