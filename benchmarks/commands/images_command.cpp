// h2dbench images: the image set the decode cases would use (the --images folder, or the
// generated tiles), and --write DIR to put the generated tiles on disk, so other decoders
// (tjbench in scripts/decode-vs-tjbench, Pillow, DALI) can be timed on the very same files.

#include <fmt/format.h>

#include <filesystem>
#include <fstream>

#include "benchmarks/commands/commands.hpp"
#include "harness/cli/command_line.hpp"
#include "harness/core/usage_error.hpp"
#include "harness/decode/image_set.hpp"
#include "harness/decode/image_set_json.hpp"
#include "harness/decode/run_images.hpp"

namespace h2d {
namespace {

namespace fs = std::filesystem;

// generated/256x256/7 -> DIR/256x256/7.jpg
void write_generated(const ImageSet& set, const std::string& dir) {
  for (const JpegImage& image : set.images) {
    const fs::path path = fs::path(dir) / fs::path(image.name).lexically_relative("generated");
    std::error_code error;
    fs::create_directories(path.parent_path(), error);
    std::ofstream out(path.string() + ".jpg", std::ios::binary);
    out.write(reinterpret_cast<const char*>(image.bytes.data()),
              static_cast<std::streamsize>(image.bytes.size()));
    if (!out.flush()) {
      throw UsageError(fmt::format("--write '{}': cannot write {}.jpg{}", dir, path.string(),
                                   error ? " (" + error.message() + ")" : std::string()));
    }
  }
  fmt::print("wrote {} tiles under {}\n", set.images.size(), dir);
}

int images_command(const std::vector<std::string>& args, const std::string& /*program*/) {
  const ParsedArgs parsed = parse_command_line(
      {"images",
       {{"--images", "a folder of .jpg/.jpeg files"}, {"--write", "a folder"}, {"--json", ""}},
       "",
       ""},
      args);
  if (parsed.has("--images") && parsed.has("--write")) {
    throw UsageError("--write writes the generated tiles; it takes no --images");
  }
  const auto folder = parsed.get("--images");
  const std::shared_ptr<const ImageSet> set = folder ? RunImages(*folder).set() : RunImages().set();
  if (parsed.has("--json")) {
    fmt::print("{}\n", image_set_to_json(*set).dump(2));
  } else {
    fmt::print("{}\n{} images, mean {:.0f} bytes\n", set->source, set->images.size(),
               set->mean_compressed_bytes());
    for (const ImageSize& size : set->sizes()) {
      fmt::print("  {}x{}: {}\n", size.width, size.height, size.count);
    }
    for (const SkippedImage& skip : set->skipped) {
      fmt::print("skipped '{}': {}\n", skip.path, skip.reason);
    }
  }
  if (const auto dir = parsed.get("--write")) {
    write_generated(*set, *dir);
  }
  return 0;
}

[[maybe_unused]] const bool images_command_registered = register_command({
    "images",
    "images [--images DIR] [--write DIR] [--json]",
    "the image set the decode cases use; --write puts the generated tiles on disk",
    images_command,
    "  --images DIR   check a folder of .jpg/.jpeg files (recursively), list what is skipped\n"
    "  --write DIR    write the generated tiles as DIR/<W>x<H>/<n>.jpg\n"
    "  --json         the report's \"images\" object\n",
});

}  // namespace
}  // namespace h2d
