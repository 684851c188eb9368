#include "harness/decode/image_set.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <system_error>

#include "harness/core/bounded_file.hpp"
#include "harness/core/usage_error.hpp"
#include "harness/decode/jpeg_encoder.hpp"
#include "harness/decode/tile_texture.hpp"

namespace h2d {
namespace fs = std::filesystem;
namespace {

bool jpeg_name(const fs::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext == ".jpg" || ext == ".jpeg";
}

// The .jpg/.jpeg files under `dir`, sorted; counts the other files in `ignored`.
std::vector<fs::path> jpeg_files(const std::string& dir, std::size_t& ignored) {
  std::error_code error;
  const fs::file_status status = fs::status(dir, error);
  if (error || !fs::is_directory(status)) {
    throw UsageError(fmt::format("--images '{}': not a folder{}", dir,
                                 error ? " (" + error.message() + ")" : std::string()));
  }
  std::vector<fs::path> files;
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, error);
  for (; !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
    std::error_code type_error;
    if (!it->is_regular_file(type_error)) {
      continue;
    }
    if (jpeg_name(it->path())) {
      files.push_back(it->path());
    } else {
      ++ignored;
    }
  }
  if (error) {
    throw UsageError(fmt::format("--images '{}': cannot list it: {}", dir, error.message()));
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Reads and checks one file: the image, or throws JpegError/UsageError with the reason.
JpegImage load_image(const fs::path& path, JpegDecoder& decoder, std::vector<std::uint8_t>& rgb) {
  const std::string text = read_bounded_file(path.string(), "image", kMaxImageFileBytes);
  JpegImage image;
  image.name = path.string();
  image.bytes.assign(text.begin(), text.end());
  image.header = decoder.header(image.bytes.data(), image.bytes.size());
  if (image.header.width * image.header.height > kMaxImagePixels) {
    throw JpegError(fmt::format("{}x{} is over the limit of {} Mpixels", image.header.width,
                                image.header.height, kMaxImagePixels >> 20));
  }
  rgb.resize(image.header.rgb_bytes());
  decoder.decode_rgb(image.bytes.data(), image.bytes.size(), image.header, rgb.data(),
                     DecodeSpeed::accurate);
  return image;
}

}  // namespace

double ImageSet::mean_compressed_bytes() const {
  if (images.empty()) {
    return 0;
  }
  double total = 0;
  for (const JpegImage& image : images) {
    total += static_cast<double>(image.bytes.size());
  }
  return total / static_cast<double>(images.size());
}

std::vector<ImageSize> ImageSet::sizes() const {
  std::vector<ImageSize> found;
  for (const JpegImage& image : images) {
    auto it = std::find_if(found.begin(), found.end(), [&](const ImageSize& size) {
      return size.width == image.header.width && size.height == image.header.height;
    });
    if (it == found.end()) {
      found.push_back({image.header.width, image.header.height, 1});
    } else {
      ++it->count;
    }
  }
  return found;
}

std::vector<const JpegImage*> ImageSet::of_size(std::size_t width, std::size_t height) const {
  std::vector<const JpegImage*> matching;
  for (const JpegImage& image : images) {
    if (image.header.width == width && image.header.height == height) {
      matching.push_back(&image);
    }
  }
  return matching;
}

std::size_t ImageSet::max_rgb_bytes() const {
  std::size_t largest = 0;
  for (const JpegImage& image : images) {
    largest = std::max(largest, image.header.rgb_bytes());
  }
  return largest;
}

ImageSet load_image_dir(const std::string& dir) {
  ImageSet set;
  set.source = dir;
  const std::vector<fs::path> files = jpeg_files(dir, set.ignored_files);
  JpegDecoder decoder;
  std::vector<std::uint8_t> rgb;
  for (const fs::path& path : files) {
    if (set.images.size() == kMaxImages) {
      ++set.unread_files;
      continue;
    }
    try {
      set.images.push_back(load_image(path, decoder, rgb));
    } catch (const std::exception& error) {  // JpegError, or UsageError from reading the file
      if (set.skipped.size() < kMaxListedSkips) {
        set.skipped.push_back({path.string(), error.what()});
      }
      ++set.skipped_count;
    }
  }
  if (set.images.empty()) {
    std::string why = fmt::format("no .jpg/.jpeg file ({} other files)", set.ignored_files);
    if (set.skipped_count > 0) {
      why = fmt::format("none of its {} .jpg/.jpeg files decodes; first: '{}': {}",
                        set.skipped_count, set.skipped.front().path, set.skipped.front().reason);
    }
    throw UsageError(fmt::format("--images '{}': no usable image: {}", dir, why));
  }
  return set;
}

ImageSet generate_image_set(const GeneratedTiles& spec) {
  ImageSet set;
  set.generated = true;
  JpegEncoder encoder;
  JpegDecoder decoder;
  std::string sizes;
  std::uint64_t seed = spec.seed;
  for (std::size_t size : spec.sizes) {
    sizes += fmt::format("{}{}x{}", sizes.empty() ? "" : ", ", size, size);
    for (std::size_t i = 0; i < spec.per_size; ++i) {
      const std::vector<std::uint8_t> rgb = textured_tile(size, size, seed++);
      JpegImage image;
      image.name = fmt::format("generated/{}x{}/{}", size, size, i);
      image.bytes = encoder.encode_rgb(rgb.data(), size, size, spec.quality);
      image.header = decoder.header(image.bytes.data(), image.bytes.size());
      set.images.push_back(std::move(image));
    }
  }
  set.source = fmt::format(
      "generated: {} textured RGB tiles of each size ({}), JPEG quality {}, 4:2:0, encoded with "
      "libjpeg-turbo in memory once per run",
      spec.per_size, sizes, spec.quality);
  return set;
}

}  // namespace h2d
