// Decode as a loader stage (decode=cpu): workers decode real JPEGs, centre-crop or pad them to the
// tile and normalize them; every batch still arrives intact; the verdict names decode as the
// bound stage and how many workers would keep up with the bus; decode=gpu is skipped with its
// reason. End to end, host/decode and the decode pipeline case write their counters and the
// report records the image set.

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "harness/core/case_skipped.hpp"
#include "harness/decode/image_set.hpp"
#include "harness/decode/jpeg_decoder.hpp"
#include "harness/decode/tile_decoder.hpp"
#include "harness/host/normalize.hpp"
#include "harness/pipeline/host_step_engine.hpp"
#include "harness/pipeline/pipeline.hpp"
#include "harness/pipeline/pipeline_case.hpp"
#include "harness/pipeline/pipeline_sweep.hpp"
#include "harness/pipeline/pipeline_verdict.hpp"
#include "tests/h2dbench_process.hpp"
#include "tests/pipeline_test_support.hpp"

namespace h2d {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::shared_ptr<const ImageSet> small_set(std::size_t size) {
  return std::make_shared<const ImageSet>(generate_image_set({{size}, 3, 90, 11}));
}

// The float32 sample TileDecoder should write for image 0 of `set` at `tile`, from its own decode.
std::vector<float> expected_sample(const ImageSet& set, std::size_t tile) {
  const JpegImage& image = set.images[0];
  JpegDecoder decoder;
  std::vector<std::uint8_t> rgb(image.header.rgb_bytes());
  decoder.decode_rgb(image.bytes.data(), image.bytes.size(), image.header, rgb.data(),
                     DecodeSpeed::accurate);
  const ChannelStats stats = imagenet_stats();
  const std::size_t w = image.header.width;
  std::vector<float> out(3 * tile * tile);
  for (std::size_t c = 0; c < 3; ++c) {
    for (std::size_t y = 0; y < tile; ++y) {
      for (std::size_t x = 0; x < tile; ++x) {
        // Centre alignment: offset of the tile inside the image (negative: padding).
        const auto sy = static_cast<long>(y) - (static_cast<long>(tile) - static_cast<long>(w)) / 2;
        const auto sx = static_cast<long>(x) - (static_cast<long>(tile) - static_cast<long>(w)) / 2;
        const bool inside =
            sy >= 0 && sx >= 0 && sy < static_cast<long>(w) && sx < static_cast<long>(w);
        const std::uint8_t value =
            inside ? rgb[(static_cast<std::size_t>(sy) * w + static_cast<std::size_t>(sx)) * 3 + c]
                   : 0;
        out[(c * tile + y) * tile + x] =
            static_cast<float>(reference_normalize(value, stats.mean[c], stats.stdev[c]));
      }
    }
  }
  return out;
}

void expect_sample(const std::shared_ptr<const ImageSet>& set, std::size_t tile) {
  TileDecoder decoder(set, tile);
  std::vector<float> out(3 * tile * tile);
  decoder.produce(reinterpret_cast<std::byte*>(out.data()), 3);  // id 3 of 3 images: image 0
  const std::vector<float> expected = expected_sample(*set, tile);
  double worst = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    worst = std::max(worst, static_cast<double>(std::abs(out[i] - expected[i])));
  }
  EXPECT_LT(worst, 1e-5) << "tile " << tile;
}

TEST(DecodeStage, DecodesCropsOrPadsAndNormalizes) {
  const auto set = small_set(32);
  expect_sample(set, 32);  // the image as it is
  expect_sample(set, 16);  // its centre
  expect_sample(set, 48);  // padded with black
  EXPECT_THROW(TileDecoder(nullptr, 32), std::invalid_argument);
}

TEST(DecodeStage, HostPipelineDeliversDecodedBatchesIntact) {
  for (PinMode pin : {PinMode::none, PinMode::pin_thread, PinMode::pinned_ring}) {
    PipelineConfig config = testing::test_pipeline_config(pin, CopyMode::async, LoopKind::train,
                                                          /*batch_size=*/4, /*tile=*/32,
                                                          /*compute_us=*/50);
    config.decode = DecodeMode::cpu;
    config.images = small_set(32);
    config.batches = 12;
    SCOPED_TRACE(describe(config));
    HostStepEngine engine(config);
    Pipeline pipeline(config, engine);
    const EpochResult result = pipeline.run_epoch();
    EXPECT_EQ(result.end, EpochEnd::completed) << testing::describe_result(result);
    EXPECT_EQ(result.verified, config.batches);
    EXPECT_EQ(result.checksum_failures, 0u) << testing::describe_result(result);
    EXPECT_GT(result.worker_busy_s, 0);
  }
}

// Sweeps leave the images to the run (with_decode_inputs); a worker without them stops the epoch.
TEST(DecodeStage, NeedsImagesAndRgb) {
  PipelineConfig config;
  config.decode = DecodeMode::cpu;
  config.tile = 16;
  EXPECT_NO_THROW(validate(config));
  EXPECT_THROW(TileDecoder(config.images, config.tile), std::invalid_argument);
  config.channels = 4;
  EXPECT_THROW(validate(config), std::invalid_argument);
}

TEST(DecodeStage, GpuDecodeGetsTheImagesOrSkipsWhenNoneIsATile) {
  PipelineConfig config;
  config.decode = DecodeMode::gpu;
  config.images = small_set(32);
  config.tile = 48;  // nvJPEG decodes whole images: no 48x48 one, no case
  const RunImages run_images;
  try {
    with_decode_inputs(config, run_images);
    FAIL() << "decode=gpu ran on images it would have to crop";
  } catch (const CaseSkipped& skipped) {
    EXPECT_TRUE(contains(skipped.what(), "no 48x48 image")) << skipped.what();
  }
  config.tile = 32;
  EXPECT_EQ(with_decode_inputs(config, run_images).images, config.images);
  config.images = nullptr;
  config.tile = kDecodeTile;
  EXPECT_EQ(with_decode_inputs(config, run_images).images, run_images.set()) << "the run's set";
  EXPECT_EQ(with_decode_inputs(config, run_images).image_dir, "") << "generated: no folder";
  config.decode = DecodeMode::cpu;
  EXPECT_NE(with_decode_inputs(config, run_images).images, nullptr);
}

TEST(DecodeStage, TheHostStandInSkipsGpuDecodeForWantOfADevice) {
  PipelineConfig config;
  config.decode = DecodeMode::gpu;
  try {
    HostStepEngine engine(config);
    FAIL() << "the host stand-in took a decode=gpu case";
  } catch (const CaseSkipped& skipped) {
    EXPECT_TRUE(contains(skipped.what(), "no device")) << skipped.what();
  }
}

TEST(DecodeStage, SweepsAddDecodeCasesAndKeepTheOtherNames) {
  bool host_cpu = false;
  for (const PipelineConfig& config : pipeline_sweep(Preset::quick, LoopKind::train, true)) {
    const std::string name = pipeline_case_name("host/pipeline", config, true);
    if (config.decode == DecodeMode::cpu) {
      host_cpu = true;
      EXPECT_TRUE(contains(name, "/decode=cpu")) << name;
      EXPECT_EQ(config.tile, kDecodeTile);
    } else {
      EXPECT_FALSE(contains(name, "decode")) << name;
    }
    EXPECT_NE(config.decode, DecodeMode::gpu) << "the host stand-in has no GPU to decode on";
  }
  EXPECT_TRUE(host_cpu);
  bool gpu = false;
  for (const PipelineConfig& config : pipeline_sweep(Preset::standard, LoopKind::train, false)) {
    gpu = gpu || config.decode == DecodeMode::gpu;
  }
  EXPECT_TRUE(gpu);
}

TEST(DecodeVerdict, NamesDecodeAndTheWorkersThatKeepUpWithTheBus) {
  StageUtilization decode_bound{0.9, 0, 0.3, 0.2, false};
  decode_bound.decoding = true;
  decode_bound.worker_count = 2;
  const PipelineVerdict verdict = judge_pipeline(decode_bound);
  EXPECT_EQ(verdict.bound_by, BoundBy::cpu_workers);
  EXPECT_TRUE(contains(verdict.reason, "bound by decode in the CPU workers: busy 90%"))
      << verdict.reason;
  EXPECT_EQ(verdict.workers_to_keep_up, 6u);  // 2 workers x 90% / 30% bus
  EXPECT_TRUE(contains(verdict.reason, "keeps up with the bus with 6 workers")) << verdict.reason;

  StageUtilization bus_bound{0.2, 0, 0.95, 0.3, false};
  bus_bound.decoding = true;
  bus_bound.worker_count = 4;
  const PipelineVerdict bus = judge_pipeline(bus_bound);
  EXPECT_EQ(bus.bound_by, BoundBy::bus);
  EXPECT_EQ(bus.workers_to_keep_up, 1u);

  const PipelineVerdict synthetic = judge_pipeline({0.9, 0, 0.3, 0.2, false});
  EXPECT_EQ(synthetic.workers_to_keep_up, 0u);
  EXPECT_FALSE(contains(synthetic.reason, "decode")) << synthetic.reason;
}

// End to end: host/decode and the decode pipeline case, the counters, the report's image set.
TEST(DecodeCli, RunWritesDecodeCountersAndTheImageSet) {
  const std::string out = h2d_test::scratch_folder("decode_cli").string() + "/report.json";
  const h2d_test::ProcessResult run = h2d_test::run_h2dbench(
      "run --preset quick --out " + h2d_test::shell_quote(out) +
      " --filter "
      "'^host/(decode/tiles=256x256/speed=fast/out=[a-z0-9]+/threads=1|pipeline/.*decode=cpu)'");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  std::ifstream in(out);
  const nlohmann::json report = nlohmann::json::parse(in);
  const auto& images = report.at("h2dbench").at("images");
  EXPECT_EQ(images.at("source"), "generated");
  EXPECT_EQ(images.at("count"), 2 * GeneratedTiles{}.per_size);
  EXPECT_GT(images.at("mean_compressed_bytes").get<double>(), 0);
  std::set<double> page_offsets;  // where each placement put the decoded pixels
  bool pipeline = false;
  for (const auto& bench : report.at("benchmarks")) {
    const std::string name = bench.at("name");
    if (contains(name, "host/decode/")) {
      page_offsets.insert(bench.at("output_page_offset").get<double>());
      EXPECT_EQ(contains(name, "out=aligned64"), bench.at("output_page_offset") == 64) << name;
      EXPECT_GT(bench.at("tiles_per_s").get<double>(), 0) << bench.dump();
      EXPECT_GT(bench.at("decoded_MB_per_s").get<double>(), 0) << bench.dump();
      EXPECT_GT(bench.at("decode_us_per_tile").get<double>(), 0) << bench.dump();
    } else if (contains(name, "decode=cpu")) {
      pipeline = true;
      EXPECT_GE(bench.at("workers_to_keep_up").get<double>(), 1) << bench.dump();
      EXPECT_TRUE(contains(bench.at("label").get<std::string>(), "decode keeps up with the bus"))
          << bench.dump();
    }
  }
  EXPECT_EQ(page_offsets, (std::set<double>{16, 64})) << report.dump(2);
  EXPECT_TRUE(pipeline) << report.dump(2);
}

}  // namespace
}  // namespace h2d
