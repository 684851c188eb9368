#include "harness/host/tile_sample.hpp"

#include <time.h>

#include <array>
#include <cstring>

#include "harness/core/pattern.hpp"

namespace h2d {
namespace {

// The usual ImageNet statistics: the numbers a real loader normalizes with.
constexpr std::array<float, 3> kMean{0.485f, 0.456f, 0.406f};
constexpr std::array<float, 3> kInvStd{1 / 0.229f, 1 / 0.224f, 1 / 0.225f};

void synthesize_and_normalize(std::byte* out, std::uint64_t sample_seed, std::size_t channels,
                              std::size_t tile) {
  const std::size_t pixels = tile * tile;
  for (std::size_t c = 0; c < channels; ++c) {
    const float mean = kMean[c % kMean.size()];
    const float inv_std = kInvStd[c % kInvStd.size()];
    const std::size_t first = c * pixels;
    for (std::size_t p = 0; p < pixels; ++p) {
      const std::size_t index = first + p;
      const std::uint64_t word = pattern_word(sample_seed, index / 8);
      const auto byte = static_cast<unsigned>((word >> (8 * (index % 8))) & 0xffu);
      const float value = (static_cast<float>(byte) * (1.0f / 255.0f) - mean) * inv_std;
      std::memcpy(out + index * sizeof(float), &value, sizeof(float));
    }
  }
}

}  // namespace

double thread_cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

bool produce_tile(std::byte* out, std::uint64_t seed, std::uint64_t id, std::size_t channels,
                  std::size_t tile, double cpu_us, const Cancellation& cancel) {
  const double deadline = thread_cpu_seconds() + cpu_us * 1e-6;
  const std::uint64_t sample_seed = pattern_word(seed, id);
  do {
    synthesize_and_normalize(out, sample_seed, channels, tile);
    if (cancel.cancelled()) {
      return false;
    }
  } while (thread_cpu_seconds() < deadline);
  return true;
}

}  // namespace h2d
