#include "harness/pipeline/batch_collation.hpp"

#include <cstring>

#include "harness/core/checksum.hpp"
#include "harness/decode/tile_decoder.hpp"
#include "harness/host/spec_sample.hpp"
#include "harness/host/tile_sample.hpp"

namespace h2d {

BatchRegions slot_regions(const SlotLayout& layout, std::byte* slot) {
  BatchRegions regions;
  regions.reserve(layout.segments());
  for (std::size_t segment = 0; segment < layout.segments(); ++segment) {
    regions.push_back(slot + layout.segment_offset(segment));
  }
  return regions;
}

namespace {

// Sample `index` of the batch: the tile (decoded or synthesized) or the sample's members.
bool produce_sample(const PipelineConfig& config, const SlotLayout& layout,
                    const BatchRegions& regions, std::size_t index, std::uint64_t id,
                    TileDecoder* decoder, const Cancellation& cancel) {
  if (config.sample) {
    std::vector<std::byte*> places;
    std::vector<std::size_t> rooms;
    for (std::size_t m = 0; m < layout.members.size(); ++m) {
      places.push_back(regions[m] + index * layout.members[m].room);
      rooms.push_back(layout.members[m].room);
    }
    return produce_spec_sample(config.sample->members, places, rooms, config.seed, id,
                               config.sample_us, cancel);
  }
  std::byte* tile = regions[0] + index * layout.members[0].room;
  if (decoder != nullptr) {
    decoder->produce(tile, id);
    return !cancel.cancelled();
  }
  return produce_tile(tile, config.seed, id, config.channels, config.tile, config.sample_us,
                      cancel);
}

}  // namespace

bool collate_batch(const PipelineConfig& config, const SlotLayout& layout,
                   const SampleIds& sample_ids, std::uint64_t batch, const BatchRegions& regions,
                   TileDecoder* decoder, const Cancellation& cancel) {
  std::byte* ids = regions.back();
  for (std::size_t i = 0; i < config.batch_size; ++i) {
    const std::uint64_t id = sample_ids.of(batch, i);
    if (!produce_sample(config, layout, regions, i, id, decoder, cancel)) {
      return false;
    }
    std::memcpy(ids + i * sizeof(id), &id, sizeof(id));
  }
  return true;
}

std::vector<std::uint64_t> sample_checksums(const SlotLayout& layout, const BatchRegions& regions) {
  std::vector<std::uint64_t> sums(layout.batch_size, 0);
  for (std::size_t m = 0; m < layout.members.size(); ++m) {
    const std::size_t room = layout.members[m].room;
    const std::uint64_t first_word = layout.first_word(m);
    for (std::size_t i = 0; i < layout.batch_size; ++i) {
      sums[i] += host_checksum(regions[m] + i * room, room, first_word);
    }
  }
  return sums;
}

}  // namespace h2d
