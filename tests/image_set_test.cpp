// The image set the decode cases use: generated tiles that compress like photos, a user's folder
// read recursively with its bad files skipped and named, an unusable folder refused in one line,
// and what the report says about the set.

#include "harness/decode/image_set.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "harness/core/usage_error.hpp"
#include "harness/decode/image_set_json.hpp"
#include "harness/decode/jpeg_decoder.hpp"
#include "harness/decode/jpeg_encoder.hpp"
#include "harness/decode/team_decode.hpp"
#include "harness/decode/tile_texture.hpp"
#include "tests/h2dbench_process.hpp"

namespace h2d {
namespace {

namespace fs = std::filesystem;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

void write_file(const fs::path& path, const std::vector<std::uint8_t>& bytes) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

std::vector<std::uint8_t> tile_jpeg(std::size_t size, std::uint64_t seed) {
  const std::vector<std::uint8_t> rgb = textured_tile(size, size, seed);
  return JpegEncoder().encode_rgb(rgb.data(), size, size, 90);
}

const SkippedImage* find_skip(const ImageSet& set, const std::string& file) {
  for (const SkippedImage& skip : set.skipped) {
    if (fs::path(skip.path).filename() == file) {
      return &skip;
    }
  }
  return nullptr;
}

TEST(ImageSet, GeneratedTilesHaveTheirSizesAndCompressLikePhotos) {
  const ImageSet set = generate_image_set();
  EXPECT_TRUE(set.generated);
  ASSERT_EQ(set.sizes().size(), 2u);
  EXPECT_EQ(set.sizes()[0].width, 256u);
  EXPECT_EQ(set.sizes()[1].height, 512u);
  EXPECT_EQ(set.of_size(256, 256).size(), GeneratedTiles{}.per_size);
  EXPECT_TRUE(contains(set.source, "quality 90")) << set.source;
  for (const JpegImage* image : set.of_size(256, 256)) {
    // Photos at quality 90 take about 1.5 to 5 bits per pixel; flat or random pixels do not.
    const double bits_per_pixel = static_cast<double>(image->bytes.size()) * 8 / (256.0 * 256.0);
    EXPECT_GT(bits_per_pixel, 1.5) << image->name;
    EXPECT_LT(bits_per_pixel, 5.0) << image->name;
  }
  // Different tiles, not one tile repeated.
  EXPECT_NE(set.images[0].bytes, set.images[1].bytes);
  // The same tiles on every run, so reports from different machines decode the same bytes.
  EXPECT_EQ(generate_image_set({{64}, 2, 90, GeneratedTiles{}.seed}).images[1].bytes,
            generate_image_set({{64}, 2, 90, GeneratedTiles{}.seed}).images[1].bytes);
}

TEST(ImageSet, DecodesWhatWasEncodedWithinJpegError) {
  const std::vector<std::uint8_t> rgb = textured_tile(64, 64, 7);
  const std::vector<std::uint8_t> jpeg = JpegEncoder().encode_rgb(rgb.data(), 64, 64, 90);
  JpegDecoder decoder;
  const JpegHeader header = decoder.header(jpeg.data(), jpeg.size());
  ASSERT_EQ(header.width, 64u);
  for (DecodeSpeed speed : {DecodeSpeed::accurate, DecodeSpeed::fast}) {
    std::vector<std::uint8_t> decoded(header.rgb_bytes());
    decoder.decode_rgb(jpeg.data(), jpeg.size(), header, decoded.data(), speed);
    double error = 0;
    for (std::size_t i = 0; i < rgb.size(); ++i) {
      error += std::abs(static_cast<int>(decoded[i]) - static_cast<int>(rgb[i]));
    }
    EXPECT_LT(error / static_cast<double>(rgb.size()), 8.0) << to_string(speed);
  }
}

TEST(ImageSet, TeamDecodeMatchesOneDecoder) {
  const ImageSet set = generate_image_set({{64, 128}, 3, 90, 1});
  std::vector<const JpegImage*> images;
  std::vector<std::vector<std::uint8_t>> out;
  std::vector<std::uint8_t*> outputs;
  for (const JpegImage& image : set.images) {
    images.push_back(&image);
    out.emplace_back(image.header.rgb_bytes());
  }
  for (auto& pixels : out) {
    outputs.push_back(pixels.data());
  }
  TeamDecode team(3);
  EXPECT_GT(team.decode(images, outputs, DecodeSpeed::fast), 0);
  JpegDecoder decoder;
  for (std::size_t i = 0; i < images.size(); ++i) {
    std::vector<std::uint8_t> alone(images[i]->header.rgb_bytes());
    decoder.decode_rgb(images[i]->bytes.data(), images[i]->bytes.size(), images[i]->header,
                       alone.data(), DecodeSpeed::fast);
    EXPECT_EQ(alone, out[i]) << images[i]->name;
  }
}

TEST(ImageSet, FolderIsReadRecursivelyAndBadFilesAreSkippedWithTheirReason) {
  const fs::path dir = h2d_test::scratch_folder("image_set_bad_files");
  const std::vector<std::uint8_t> good = tile_jpeg(64, 1);
  write_file(dir / "a.jpg", good);
  write_file(dir / "nested" / "deeper" / "B.JPEG", tile_jpeg(96, 2));
  write_file(dir / "truncated.jpg", {good.begin(), good.begin() + good.size() / 2});
  write_file(dir / "not_a_jpeg.jpg", {'G', 'I', 'F', '8', '9', 'a', 0, 0, 0, 0});
  write_file(dir / "empty.jpeg", {});
  write_file(dir / "labels.txt", {'x'});

  const ImageSet set = load_image_dir(dir.string());
  EXPECT_FALSE(set.generated);
  EXPECT_EQ(set.source, dir.string());
  ASSERT_EQ(set.images.size(), 2u);
  EXPECT_EQ(fs::path(set.images[0].name).filename(), "a.jpg");
  EXPECT_EQ(set.images[1].header.width, 96u);
  EXPECT_EQ(set.ignored_files, 1u);
  EXPECT_EQ(set.skipped_count, 3u);
  for (const char* file : {"truncated.jpg", "not_a_jpeg.jpg", "empty.jpeg"}) {
    const SkippedImage* skip = find_skip(set, file);
    ASSERT_NE(skip, nullptr) << file;
    EXPECT_FALSE(skip->reason.empty()) << file;
  }
  EXPECT_TRUE(contains(find_skip(set, "empty.jpeg")->reason, "empty"))
      << find_skip(set, "empty.jpeg")->reason;
  EXPECT_TRUE(contains(find_skip(set, "truncated.jpg")->reason, "Premature end"))
      << find_skip(set, "truncated.jpg")->reason;
}

TEST(ImageSet, FolderWithoutAUsableImageIsAUsageError) {
  const fs::path empty = h2d_test::scratch_folder("image_set_empty");
  try {
    load_image_dir(empty.string());
    FAIL() << "an empty folder was accepted";
  } catch (const UsageError& error) {
    EXPECT_TRUE(contains(error.what(), "--images '" + empty.string() + "': no usable image"))
        << error.what();
  }
  const fs::path bad = h2d_test::scratch_folder("image_set_only_bad");
  write_file(bad / "broken.jpg", {'n', 'o', 'p', 'e'});
  try {
    load_image_dir(bad.string());
    FAIL() << "a folder of broken files was accepted";
  } catch (const UsageError& error) {
    EXPECT_TRUE(contains(error.what(), "broken.jpg")) << error.what();
  }
  EXPECT_THROW(load_image_dir((empty / "missing").string()), UsageError);
}

TEST(ImageSet, ReportSaysCountSizesBytesSourceAndSkips) {
  const fs::path dir = h2d_test::scratch_folder("image_set_report");
  const std::vector<std::uint8_t> a = tile_jpeg(64, 3);
  const std::vector<std::uint8_t> b = tile_jpeg(64, 4);
  write_file(dir / "a.jpg", a);
  write_file(dir / "b.jpg", b);
  write_file(dir / "c.jpg", {'x'});
  const nlohmann::json json = image_set_to_json(load_image_dir(dir.string()));
  EXPECT_EQ(json["source"], "folder");
  EXPECT_EQ(json["description"], dir.string());
  EXPECT_EQ(json["count"], 2);
  ASSERT_EQ(json["sizes"].size(), 1u);
  EXPECT_EQ(json["sizes"][0]["width"], 64);
  EXPECT_EQ(json["sizes"][0]["count"], 2);
  EXPECT_DOUBLE_EQ(json["mean_compressed_bytes"].get<double>(),
                   static_cast<double>(a.size() + b.size()) / 2);
  EXPECT_EQ(json["skipped_count"], 1);
  EXPECT_EQ(fs::path(json["skipped"][0]["path"].get<std::string>()).filename(), "c.jpg");
  EXPECT_EQ(image_set_to_json(generate_image_set({{32}, 1, 90, 5}))["source"], "generated");
}

// From the command line: a folder with no usable image is one line and exit 2, before any case.
TEST(ImagesCli, UnusableFolderIsOneLineAndExitTwo) {
  const fs::path empty = h2d_test::scratch_folder("images_cli_empty");
  const h2d_test::ProcessResult run = h2d_test::run_h2dbench(
      "run --filter '^host/decode/' --images " + h2d_test::shell_quote(empty.string()));
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_TRUE(contains(run.output, "no usable image")) << run.output;
  EXPECT_LE(std::count(run.output.begin(), run.output.end(), '\n'), 1) << run.output;
}

TEST(ImagesCli, ListsTheSkippedFilesAndWritesTheGeneratedTiles) {
  const fs::path dir = h2d_test::scratch_folder("images_cli_folder");
  write_file(dir / "good.jpg", tile_jpeg(64, 9));
  write_file(dir / "bad.jpg", {'x'});
  const h2d_test::ProcessResult listed =
      h2d_test::run_h2dbench("images --images " + h2d_test::shell_quote(dir.string()));
  EXPECT_EQ(listed.exit_code, 0) << listed.output;
  EXPECT_TRUE(contains(listed.output, "1 images")) << listed.output;
  EXPECT_TRUE(contains(listed.output, "skipped '" + (dir / "bad.jpg").string() + "'"))
      << listed.output;

  const fs::path out = h2d_test::scratch_folder("images_cli_written");
  const h2d_test::ProcessResult written =
      h2d_test::run_h2dbench("images --write " + h2d_test::shell_quote(out.string()));
  EXPECT_EQ(written.exit_code, 0) << written.output;
  EXPECT_EQ(load_image_dir(out.string()).images.size(), 2 * GeneratedTiles{}.per_size);
}

}  // namespace
}  // namespace h2d
