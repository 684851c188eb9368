#include "harness/decode/tile_texture.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace h2d {
namespace {

std::uint64_t mix(std::uint64_t x) {  // splitmix64's finalizer
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// A pseudo-random value in [0, 1) for lattice point (x, y) of layer `seed`.
double lattice(std::int64_t x, std::int64_t y, std::uint64_t seed) {
  const std::uint64_t h = mix(
      seed ^ mix(static_cast<std::uint64_t>(x) * 0x100000001B3ull ^ static_cast<std::uint64_t>(y)));
  return static_cast<double>(h >> 11) * 0x1.0p-53;
}

// Value noise: the lattice smoothly interpolated, one lattice cell per `cell` pixels.
double value_noise(double x, double y, double cell, std::uint64_t seed) {
  const double fx = x / cell;
  const double fy = y / cell;
  const auto x0 = static_cast<std::int64_t>(std::floor(fx));
  const auto y0 = static_cast<std::int64_t>(std::floor(fy));
  const auto smooth = [](double t) { return t * t * (3 - 2 * t); };
  const double tx = smooth(fx - static_cast<double>(x0));
  const double ty = smooth(fy - static_cast<double>(y0));
  const double top = lattice(x0, y0, seed) * (1 - tx) + lattice(x0 + 1, y0, seed) * tx;
  const double bottom = lattice(x0, y0 + 1, seed) * (1 - tx) + lattice(x0 + 1, y0 + 1, seed) * tx;
  return top * (1 - ty) + bottom * ty;
}

// Six octaves from 64-pixel cells down to 2-pixel cells, in [0, 1).
double fractal(double x, double y, std::uint64_t seed) {
  double sum = 0;
  double amplitude = 1;
  double total = 0;
  double cell = 64;
  for (int octave = 0; octave < 6; ++octave) {
    sum += amplitude * value_noise(x, y, cell, seed + static_cast<std::uint64_t>(octave));
    total += amplitude;
    amplitude *= 0.55;
    cell /= 2;
  }
  return sum / total;
}

}  // namespace

std::vector<std::uint8_t> textured_tile(std::size_t width, std::size_t height, std::uint64_t seed) {
  std::vector<std::uint8_t> rgb(width * height * 3);
  const std::uint64_t luma_seed = mix(seed);
  const std::array<std::uint64_t, 3> chroma_seeds{mix(seed + 1), mix(seed + 2), mix(seed + 3)};
  const std::array<double, 3> tint{0.9 + 0.2 * lattice(0, 0, seed), 1.0,
                                   0.8 + 0.2 * lattice(1, 0, seed)};
  for (std::size_t y = 0; y < height; ++y) {
    for (std::size_t x = 0; x < width; ++x) {
      const auto fx = static_cast<double>(x);
      const auto fy = static_cast<double>(y);
      // Contrast stretched around the middle: fractal sums cluster near 0.5.
      const double luma = 0.5 + 2.2 * (fractal(fx, fy, luma_seed) - 0.5);
      const std::uint64_t grain = mix(luma_seed ^ (y * width + x));
      for (std::size_t c = 0; c < 3; ++c) {
        const double chroma = 0.35 * (value_noise(fx, fy, 24, chroma_seeds[c]) - 0.5);
        const double noise = (static_cast<double>((grain >> (16 * c)) & 0xFF) - 127.5) / 255 * 0.04;
        const double value = (luma * tint[c] + chroma + noise) * 255;
        rgb[(y * width + x) * 3 + c] =
            static_cast<std::uint8_t>(std::clamp(std::lround(value), 0L, 255L));
      }
    }
  }
  return rgb;
}

}  // namespace h2d
