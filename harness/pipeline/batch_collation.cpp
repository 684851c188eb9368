#include "harness/pipeline/batch_collation.hpp"

#include <cstring>

#include "harness/core/checksum.hpp"
#include "harness/decode/tile_decoder.hpp"
#include "harness/host/tile_sample.hpp"

namespace h2d {

bool collate_batch(const PipelineConfig& config, const SampleIds& sample_ids, std::uint64_t batch,
                   std::byte* images, std::byte* ids, TileDecoder* decoder,
                   const Cancellation& cancel) {
  const std::size_t sample_bytes = config.sample_bytes();
  for (std::size_t i = 0; i < config.batch_size; ++i) {
    const std::uint64_t id = sample_ids.of(batch, i);
    if (decoder != nullptr) {
      decoder->produce(images + i * sample_bytes, id);
      if (cancel.cancelled()) {
        return false;
      }
    } else if (!produce_tile(images + i * sample_bytes, config.seed, id, config.channels,
                             config.tile, config.sample_us, cancel)) {
      return false;
    }
    std::memcpy(ids + i * sizeof(id), &id, sizeof(id));
  }
  return true;
}

std::vector<std::uint64_t> sample_checksums(const PipelineConfig& config, const std::byte* images) {
  const std::size_t sample_bytes = config.sample_bytes();
  std::vector<std::uint64_t> sums(config.batch_size);
  for (std::size_t i = 0; i < config.batch_size; ++i) {
    sums[i] = host_checksum(images + i * sample_bytes, sample_bytes);
  }
  return sums;
}

}  // namespace h2d
