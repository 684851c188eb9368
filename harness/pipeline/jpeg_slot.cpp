#include "harness/pipeline/jpeg_slot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "harness/decode/tile_decoder.hpp"
#include "harness/pipeline/pipeline_config.hpp"
#include "harness/pipeline/slot_layout.hpp"

namespace h2d {
namespace {

std::uint64_t load_u64(const std::byte* at) {
  std::uint64_t value = 0;
  std::memcpy(&value, at, sizeof(value));
  return value;
}

void store_u64(std::byte* at, std::uint64_t value) {
  std::memcpy(at, &value, sizeof(value));
}

std::size_t entry_offset(const JpegSlotLayout& layout, std::size_t index) {
  return layout.entries_offset() + index * 2 * sizeof(std::uint64_t);
}

}  // namespace

JpegSlotPacker::JpegSlotPacker(std::byte* slot, const JpegSlotLayout& layout)
    : slot_(slot), layout_(layout) {}

void JpegSlotPacker::add(std::uint64_t id, const std::uint8_t* jpeg, std::size_t size) {
  if (samples_ >= layout_.batch_size) {
    throw JpegSlotOverflow(
        fmt::format("JPEG slot: sample {} is past the batch of {}", samples_, layout_.batch_size));
  }
  if (size > layout_.capacity - used_) {
    throw JpegSlotOverflow(fmt::format(
        "JPEG slot: sample {} (id {}, {} bytes) does not fit: {} of {} payload bytes already used "
        "(the slot was sized for another image set)",
        samples_, id, size, used_, layout_.capacity));
  }
  store_u64(slot_ + samples_ * sizeof(std::uint64_t), id);
  std::byte* entry = slot_ + entry_offset(layout_, samples_);
  store_u64(entry, used_);
  store_u64(entry + sizeof(std::uint64_t), size);
  std::memcpy(slot_ + layout_.payload_offset() + used_, jpeg, size);
  used_ += size;
  ++samples_;
}

JpegSlotEntry read_jpeg_entry(const std::byte* slot, const JpegSlotLayout& layout,
                              std::size_t index) {
  if (index >= layout.batch_size) {
    throw std::out_of_range(
        fmt::format("JPEG slot: no sample {} in a batch of {}", index, layout.batch_size));
  }
  const std::byte* entry = slot + entry_offset(layout, index);
  const std::uint64_t offset = load_u64(entry);
  const std::uint64_t size = load_u64(entry + sizeof(std::uint64_t));
  if (offset > layout.capacity || size > layout.capacity - offset) {
    throw std::out_of_range(
        fmt::format("JPEG slot: sample {} claims bytes {}..{}, outside the payload of {}", index,
                    offset, offset + size, layout.capacity));
  }
  return {reinterpret_cast<const std::uint8_t*>(slot + layout.payload_offset() + offset),
          static_cast<std::size_t>(size)};
}

std::size_t largest_batch_jpeg_bytes(const std::vector<const JpegImage*>& images,
                                     std::size_t batch_size) {
  if (images.empty()) {
    throw std::invalid_argument("decode=gpu needs an image set with at least one image");
  }
  const std::size_t n = images.size();
  // Whole rounds through the images, then the heaviest window of the remainder.
  std::size_t all = 0;
  for (const JpegImage* image : images) {
    all += image->bytes.size();
  }
  const std::size_t rest = batch_size % n;
  std::size_t window = 0;
  for (std::size_t i = 0; i < rest; ++i) {
    window += images[i]->bytes.size();
  }
  std::size_t heaviest = window;
  for (std::size_t start = 1; start < n && rest > 0; ++start) {
    window += images[(start + rest - 1) % n]->bytes.size();
    window -= images[start - 1]->bytes.size();
    heaviest = std::max(heaviest, window);
  }
  return (batch_size / n) * all + heaviest;
}

std::vector<const JpegImage*> jpeg_slot_images(const PipelineConfig& config) {
  if (!config.images) {
    throw std::invalid_argument("decode=gpu: the pipeline configuration has no image set");
  }
  return tile_images(*config.images, config.tile);
}

JpegSlotLayout jpeg_slot_layout(const PipelineConfig& config) {
  return jpeg_slot_layout(jpeg_slot_images(config), config.batch_size);
}

JpegSlotLayout jpeg_slot_layout(const std::vector<const JpegImage*>& images,
                                std::size_t batch_size) {
  JpegSlotLayout layout;
  layout.batch_size = batch_size;
  layout.capacity = largest_batch_jpeg_bytes(images, batch_size);
  return layout;
}

std::size_t host_slot_bytes(const PipelineConfig& config) {
  return config.decode == DecodeMode::gpu ? jpeg_slot_layout(config).bytes()
                                          : SlotLayout(config).host_bytes();
}

}  // namespace h2d
