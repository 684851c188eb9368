#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "harness/decode/jpeg_decoder.hpp"

namespace h2d {

// One JPEG file in memory, checked to decode cleanly.
struct JpegImage {
  std::string name;  // the path (a user's image) or "generated/256x256/7"
  std::vector<std::uint8_t> bytes;
  JpegHeader header;
};

// A file of the folder that was left out, and why (corrupt, truncated, not a JPEG, too large).
struct SkippedImage {
  std::string path;
  std::string reason;
};

// How many images of one size a set holds.
struct ImageSize {
  std::size_t width = 0;
  std::size_t height = 0;
  std::size_t count = 0;
};

// The images a run decodes: the user's (--images DIR) or generated tiles.
struct ImageSet {
  bool generated = false;
  std::string source;  // the folder, or how the tiles were generated
  std::vector<JpegImage> images;
  std::vector<SkippedImage> skipped;  // at most kMaxListedSkips; skipped_count has them all
  std::size_t skipped_count = 0;
  std::size_t ignored_files = 0;  // files without a .jpg/.jpeg name, not looked at
  std::size_t unread_files = 0;   // .jpg/.jpeg files after kMaxImages usable ones, not read

  double mean_compressed_bytes() const;
  // Sizes in the order they first occur, with how many images have each.
  std::vector<ImageSize> sizes() const;
  // The images of one size (for the per-size cases of the generated set).
  std::vector<const JpegImage*> of_size(std::size_t width, std::size_t height) const;
  std::size_t max_rgb_bytes() const;
};

// Limits on what a user's folder may make h2dbench hold in memory.
inline constexpr std::size_t kMaxImages = 256;  // first ones in path order
inline constexpr std::size_t kMaxImageFileBytes = 64u << 20;
inline constexpr std::size_t kMaxImagePixels = 64u << 20;  // decoded: 192 MiB of RGB
inline constexpr std::size_t kMaxListedSkips = 100;

// Every .jpg/.jpeg (any case) under `dir`, recursively, in path order, each decoded once to check
// it (up to kMaxImages usable ones). Files that do not decode cleanly are skipped with their
// path and reason. Throws UsageError ("--images 'DIR': ...", exit 2) when `dir` is not a
// readable folder or holds no usable image (with the first skip's reason, if any).
ImageSet load_image_dir(const std::string& dir);

// What the generated set holds: `per_size` RGB tiles of each size, encoded at `quality`.
struct GeneratedTiles {
  std::vector<std::size_t> sizes{256, 512};
  std::size_t per_size = 32;
  int quality = 90;
  std::uint64_t seed = 0x54494C4553455431ull;  // "TILESET1"
};
// Textured tiles (tile_texture) encoded with libjpeg-turbo, in memory.
ImageSet generate_image_set(const GeneratedTiles& spec = {});

}  // namespace h2d
