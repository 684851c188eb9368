#include "harness/decode/team_decode.hpp"

#include <atomic>
#include <numeric>
#include <stdexcept>

#include "harness/core/stopwatch.hpp"

namespace h2d {

TeamDecode::TeamDecode(std::size_t threads)
    : team_(threads, "decode"), decoders_(team_.size()), busy_s_(team_.size()) {}

double TeamDecode::decode(const std::vector<const JpegImage*>& images,
                          const std::vector<std::uint8_t*>& outputs, DecodeSpeed speed) {
  if (images.size() != outputs.size()) {
    throw std::invalid_argument("TeamDecode: one output per image");
  }
  std::atomic<std::size_t> next{0};
  team_.run([&](std::size_t thread) {
    const Stopwatch watch;
    JpegDecoder& decoder = decoders_[thread];
    for (std::size_t i = next.fetch_add(1); i < images.size(); i = next.fetch_add(1)) {
      const JpegImage& image = *images[i];
      decoder.decode_rgb(image.bytes.data(), image.bytes.size(), image.header, outputs[i], speed);
    }
    busy_s_[thread] = watch.seconds();
  });
  return std::accumulate(busy_s_.begin(), busy_s_.end(), 0.0);
}

}  // namespace h2d
