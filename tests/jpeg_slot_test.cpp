// decode=gpu's host side: JPEG bytes packed into a pipeline slot undecoded, read back by the
// engine, the slot sized from the image set; and the sweeps that hold decode=gpu cases.

#include "harness/pipeline/jpeg_slot.hpp"
#include "harness/pipeline/slot_layout.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "harness/decode/image_set.hpp"
#include "harness/pipeline/pipeline_config.hpp"
#include "harness/pipeline/pipeline_sweep.hpp"

namespace h2d {
namespace {

std::vector<std::uint8_t> bytes_of(std::size_t size, std::uint8_t first) {
  std::vector<std::uint8_t> bytes(size);
  for (std::size_t i = 0; i < size; ++i) {
    bytes[i] = static_cast<std::uint8_t>(first + i);
  }
  return bytes;
}

TEST(JpegSlot, PacksVariableSizeBytesAndReadsThemBack) {
  const JpegSlotLayout layout{3, 100};
  EXPECT_EQ(layout.payload_offset() % 64, 0u);
  EXPECT_GE(layout.payload_offset(), 3 * 8 + 3 * 16u);
  std::vector<std::byte> slot(layout.bytes(), std::byte{0xEE});
  const std::vector<std::vector<std::uint8_t>> jpegs{bytes_of(10, 1), bytes_of(37, 50),
                                                     bytes_of(1, 200)};
  JpegSlotPacker packer(slot.data(), layout);
  for (std::size_t i = 0; i < jpegs.size(); ++i) {
    packer.add(1000 + i, jpegs[i].data(), jpegs[i].size());
  }
  EXPECT_EQ(packer.samples(), 3u);
  EXPECT_EQ(packer.payload_bytes(), 48u);
  EXPECT_EQ(packer.used_bytes(), layout.payload_offset() + 48);
  std::size_t offset = 0;
  for (std::size_t i = 0; i < jpegs.size(); ++i) {
    std::uint64_t id = 0;
    std::memcpy(&id, slot.data() + i * sizeof(id), sizeof(id));
    EXPECT_EQ(id, 1000 + i) << "ids come first, where the engine copies them from";
    const JpegSlotEntry entry = read_jpeg_entry(slot.data(), layout, i);
    ASSERT_EQ(entry.size, jpegs[i].size()) << i;
    EXPECT_EQ(reinterpret_cast<const std::byte*>(entry.data),
              slot.data() + layout.payload_offset() + offset)
        << "back to back, in order";
    EXPECT_EQ(std::memcmp(entry.data, jpegs[i].data(), entry.size), 0) << i;
    offset += entry.size;
  }
  EXPECT_THROW(read_jpeg_entry(slot.data(), layout, 3), std::out_of_range);
}

TEST(JpegSlot, ASlotTooSmallIsAClearError) {
  const JpegSlotLayout layout{2, 20};
  std::vector<std::byte> slot(layout.bytes());
  const std::vector<std::uint8_t> jpeg = bytes_of(15, 0);
  JpegSlotPacker packer(slot.data(), layout);
  packer.add(7, jpeg.data(), jpeg.size());
  try {
    packer.add(8, jpeg.data(), jpeg.size());
    FAIL() << "15 more bytes fit into 5";
  } catch (const JpegSlotOverflow& overflow) {
    const std::string what = overflow.what();
    EXPECT_NE(what.find("sample 1 (id 8, 15 bytes) does not fit: 15 of 20"), std::string::npos)
        << what;
  }
  packer.add(8, jpeg.data(), 5);
  EXPECT_THROW(packer.add(9, jpeg.data(), 0), JpegSlotOverflow) << "the batch is full";
}

TEST(JpegSlot, AnEntryOutsideThePayloadIsRejected) {
  const JpegSlotLayout layout{1, 16};
  std::vector<std::byte> slot(layout.bytes());
  const std::vector<std::uint8_t> jpeg = bytes_of(16, 0);
  JpegSlotPacker(slot.data(), layout).add(1, jpeg.data(), jpeg.size());
  const JpegSlotLayout smaller{1, 15};  // as the engine reads it when the batch says 15 bytes
  EXPECT_THROW(read_jpeg_entry(slot.data(), smaller, 0), std::out_of_range);
}

// The heaviest window of `batch` images taken round and round, by brute force.
std::size_t brute_force_heaviest(const std::vector<const JpegImage*>& images, std::size_t batch) {
  std::size_t heaviest = 0;
  for (std::size_t start = 0; start < images.size(); ++start) {
    std::size_t sum = 0;
    for (std::size_t i = 0; i < batch; ++i) {
      sum += images[(start + i) % images.size()]->bytes.size();
    }
    heaviest = std::max(heaviest, sum);
  }
  return heaviest;
}

TEST(JpegSlot, IsSizedForTheHeaviestBatchOfTheImageSet) {
  std::vector<JpegImage> owned(4);
  const std::size_t sizes[] = {5, 1, 9, 2};
  std::vector<const JpegImage*> images;
  for (std::size_t i = 0; i < owned.size(); ++i) {
    owned[i].bytes.resize(sizes[i]);
    images.push_back(&owned[i]);
  }
  EXPECT_EQ(largest_batch_jpeg_bytes(images, 2), 11u);  // 9 + 2
  EXPECT_EQ(largest_batch_jpeg_bytes(images, 4), 17u);  // every image once
  EXPECT_EQ(largest_batch_jpeg_bytes(images, 6), 28u);  // once round, then 9 + 2
  for (std::size_t batch = 1; batch <= 13; ++batch) {
    EXPECT_EQ(largest_batch_jpeg_bytes(images, batch), brute_force_heaviest(images, batch))
        << batch;
  }
  EXPECT_THROW(largest_batch_jpeg_bytes({}, 4), std::invalid_argument);
}

TEST(JpegSlot, EveryBatchOfAGeneratedSetFitsItsSlot) {
  PipelineConfig config;
  config.decode = DecodeMode::gpu;
  config.tile = 64;
  config.batch_size = 5;
  EXPECT_THROW(jpeg_slot_layout(config), std::invalid_argument) << "no image set yet";
  EXPECT_THROW(jpeg_slot_images(config), std::invalid_argument) << "no image set yet";
  config.images = std::make_shared<const ImageSet>(generate_image_set({{64}, 7, 90, 3}));
  const JpegSlotLayout layout = jpeg_slot_layout(config);
  EXPECT_EQ(host_slot_bytes(config), layout.bytes());
  const JpegSlotLayout from_images = jpeg_slot_layout(jpeg_slot_images(config), 5);
  EXPECT_EQ(from_images.capacity, layout.capacity);
  EXPECT_EQ(from_images.bytes(), layout.bytes());
  std::vector<const JpegImage*> images;
  for (const JpegImage& image : config.images->images) {
    images.push_back(&image);
  }
  EXPECT_EQ(layout.capacity, brute_force_heaviest(images, config.batch_size));
  std::size_t tightest = layout.capacity;
  std::vector<std::byte> slot(layout.bytes());
  for (std::uint64_t first = 0; first < images.size(); ++first) {
    JpegSlotPacker packer(slot.data(), layout);
    for (std::size_t i = 0; i < config.batch_size; ++i) {
      const JpegImage& image = *images[(first + i) % images.size()];
      packer.add(first + i, image.bytes.data(), image.bytes.size());
    }
    tightest = std::min(tightest, layout.capacity - packer.payload_bytes());
  }
  EXPECT_EQ(tightest, 0u) << "the heaviest batch fills the slot exactly: no guessed margin";
  config.decode = DecodeMode::cpu;
  EXPECT_EQ(host_slot_bytes(config), SlotLayout(config).host_bytes());
}

TEST(JpegSlot, SweepsHoldDecodeGpuCasesOnTheGpuFamiliesOnly) {
  for (Preset preset : {Preset::quick, Preset::standard, Preset::full}) {
    bool gpu = false;
    for (const PipelineConfig& config : pipeline_sweep(preset, LoopKind::train, false)) {
      gpu = gpu || config.decode == DecodeMode::gpu;
      if (config.decode == DecodeMode::gpu) {
        EXPECT_NE(pipeline_case_name("pipeline/train", config, false).find("/decode=gpu"),
                  std::string::npos);
        EXPECT_EQ(config.tile, kDecodeTile) << "the generated set's tiles, decoded whole";
      }
    }
    EXPECT_TRUE(gpu);
    for (LoopKind loop : {LoopKind::train, LoopKind::predict}) {
      for (const PipelineConfig& config : pipeline_sweep(preset, loop, true)) {
        EXPECT_NE(config.decode, DecodeMode::gpu) << "the host stand-in has no device";
      }
    }
  }
  std::size_t predict_decode = 0;
  for (const PipelineConfig& config : pipeline_sweep(Preset::quick, LoopKind::predict, false)) {
    if (config.decode != DecodeMode::none) {
      ++predict_decode;
      EXPECT_EQ(config.decode, DecodeMode::cpu);
    }
  }
  EXPECT_EQ(predict_decode, 1u) << "quick predict: one decode=cpu case";
}

}  // namespace
}  // namespace h2d
