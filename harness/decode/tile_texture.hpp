#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace h2d {

// An RGB (H×W×3) tile with the texture of an aerial or natural photo: fractal value noise (six
// octaves, amplitude halving with each, as natural images' 1/f spectrum), colour that follows
// luminance loosely, and a little sensor grain. Flat or random pixels would compress to sizes no
// real image has (a few hundred bytes, or hardly at all); this lands where photos at quality 90
// do (about 2 to 4 bits per pixel). The same pixels for the same (size, seed).
std::vector<std::uint8_t> textured_tile(std::size_t width, std::size_t height, std::uint64_t seed);

}  // namespace h2d
