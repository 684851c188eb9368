#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "harness/decode/image_set.hpp"

namespace h2d {

struct PipelineConfig;

// A decode=gpu batch in a host slot: the compressed JPEG bytes of its samples, not decoded.
//   [ids: batch x u64][entries: batch x (offset, size) u64][payload: the JPEG bytes, back to back]
// The entries never cross the bus (the engine reads them on the host to hand nvJPEG each image);
// the ids and the payload do. Offsets are from the start of the payload.
struct JpegSlotLayout {
  std::size_t batch_size = 0;
  std::size_t capacity = 0;  // payload bytes the slot holds

  std::size_t ids_bytes() const { return batch_size * sizeof(std::uint64_t); }
  std::size_t entries_offset() const { return ids_bytes(); }
  std::size_t payload_offset() const {
    return (entries_offset() + batch_size * 2 * sizeof(std::uint64_t) + 63) / 64 * 64;
  }
  std::size_t bytes() const { return payload_offset() + capacity; }
};

// A batch that does not fit its slot: the slot was sized for other images.
class JpegSlotOverflow : public std::length_error {
 public:
  using std::length_error::length_error;
};

// Writes one batch into a slot, sample by sample, in order.
class JpegSlotPacker {
 public:
  JpegSlotPacker(std::byte* slot, const JpegSlotLayout& layout);
  // Appends sample `id` with its JPEG bytes. Throws JpegSlotOverflow naming the sample and the
  // sizes when the bytes do not fit the payload or the batch is already full.
  void add(std::uint64_t id, const std::uint8_t* jpeg, std::size_t size);
  std::size_t samples() const { return samples_; }
  std::size_t payload_bytes() const { return used_; }
  // From the slot's start to the end of the last sample's bytes: what a pin stage copies.
  std::size_t used_bytes() const { return layout_.payload_offset() + used_; }

 private:
  std::byte* slot_;
  JpegSlotLayout layout_;
  std::size_t samples_ = 0;
  std::size_t used_ = 0;
};

// Sample `index` of a packed slot. Throws std::out_of_range when the index is past the batch or
// the entry points outside the payload (a slot that was never packed, or overwritten).
struct JpegSlotEntry {
  const std::uint8_t* data = nullptr;
  std::size_t size = 0;
};
JpegSlotEntry read_jpeg_entry(const std::byte* slot, const JpegSlotLayout& layout,
                              std::size_t index);

// The most compressed bytes any batch of `batch_size` consecutive sample ids can hold, when sample
// id is images[id % images.size()] (tile_images): the largest sum over a window of `batch_size`
// images taken round and round. Throws std::invalid_argument when `images` is empty.
std::size_t largest_batch_jpeg_bytes(const std::vector<const JpegImage*>& images,
                                     std::size_t batch_size);

// The images a decode=gpu config's samples come from (tile_images of its set and tile). Throws
// std::invalid_argument when the config has no image set.
std::vector<const JpegImage*> jpeg_slot_images(const PipelineConfig& config);

// The slot a decode=gpu config needs: sized from its image set (config.images) and tile. Throws
// std::invalid_argument when the config has no image set.
JpegSlotLayout jpeg_slot_layout(const PipelineConfig& config);
// The same from jpeg_slot_images, for a caller that has them.
JpegSlotLayout jpeg_slot_layout(const std::vector<const JpegImage*>& images,
                                std::size_t batch_size);

// The bytes of one host slot of `config`: SlotLayout::host_bytes(), or with decode=gpu the JPEG
// slot.
std::size_t host_slot_bytes(const PipelineConfig& config);

}  // namespace h2d
