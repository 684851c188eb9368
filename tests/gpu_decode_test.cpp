// nvJPEG and h2d/decode (issue 14): the cases the family lists (no GPU needed), nvJPEG's pixels
// against libjpeg-turbo's for the same files, and a quick run of the family. Where this build has
// no nvJPEG (no toolkit nvJPEG and no wheel, or the simulated GPU) the nvJPEG parts skip with the
// reason the build gave.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "harness/core/case_skipped.hpp"
#include "harness/cuda/cuda_error.hpp"
#include "harness/cuda/device_buffer.hpp"
#include "harness/cuda/nvjpeg/gpu_jpeg_decoder.hpp"
#include "harness/cuda/stream.hpp"
#include "harness/decode/jpeg_decoder.hpp"
#include "harness/decode/level_difference.hpp"
#include "harness/decode/run_images.hpp"
#include "harness/suite/family.hpp"
#include "tests/gpu_test_support.hpp"
#include "tests/quick_run.hpp"

namespace h2d {
namespace {

using h2d_test::measured_entries;
using h2d_test::QuickRun;
using h2d_test::run_quick;

std::vector<std::string> decode_case_names(Preset preset) {
  RunPlan plan;
  plan.preset = preset;
  plan.devices.push_back(DeviceInfo{});
  std::vector<std::string> names;
  for (const Family& family : registered_families()) {
    if (family.name == "h2d/decode") {
      for (const BenchmarkCase& bench_case : family.cases(plan)) {
        names.push_back(bench_case.name);
      }
    }
  }
  return names;
}

TEST(DecodeCases, EveryRouteByTileSizeAndBatch) {
  const auto names = decode_case_names(Preset::quick);
  // 2 tile sizes x (cpu/cpu, cpu/gpu, hybrid, gpu_hybrid, hardware) x batch 1 and 16.
  EXPECT_EQ(names.size(), 2u * 5 * 2);
  for (const char* name : {"h2d/decode/tiles=256x256/decode=cpu/normalize=cpu/batch=16",
                           "h2d/decode/tiles=512x512/decode=cpu/normalize=gpu/batch=1",
                           "h2d/decode/tiles=256x256/decode=hybrid/normalize=gpu/batch=16",
                           "h2d/decode/tiles=256x256/decode=gpu_hybrid/normalize=gpu/batch=1",
                           "h2d/decode/tiles=512x512/decode=hardware/normalize=gpu/batch=16"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
  }
}

TEST(GpuJpegDecoderGpu, AgreesWithLibjpegTurboOnTheSameFiles) {
  H2D_REQUIRE_GPU();
  const auto set = RunImages().set();
  const std::vector<const JpegImage*> images = set->of_size(256, 256);
  ASSERT_FALSE(images.empty());
  for (JpegBackend backend : {JpegBackend::hybrid, JpegBackend::gpu_hybrid}) {
    std::optional<GpuJpegDecoder> gpu;
    try {
      gpu.emplace(0, backend);
    } catch (const CaseSkipped& skipped) {
      GTEST_SKIP() << skipped.what();
    }
    const std::size_t sample = images[0]->header.rgb_bytes();
    const DeviceBuffer pixels(0, sample * images.size());
    std::vector<JpegBytes> jpegs;
    std::vector<std::byte*> outputs;
    for (std::size_t i = 0; i < images.size(); ++i) {
      const JpegImage& image = *images[i];
      jpegs.push_back(
          {image.bytes.data(), image.bytes.size(), image.header.width, image.header.height});
      outputs.push_back(pixels.data() + i * sample);
    }
    const Stream stream(0);
    gpu->decode(jpegs, outputs, RgbLayout::interleaved, stream.get());
    H2D_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
    std::vector<std::uint8_t> decoded(sample * images.size());
    H2D_CUDA_CHECK(
        cudaMemcpy(decoded.data(), pixels.data(), decoded.size(), cudaMemcpyDeviceToHost));

    for (DecodeSpeed speed : {DecodeSpeed::accurate, DecodeSpeed::fast}) {
      JpegDecoder cpu;
      std::vector<std::uint8_t> reference(sample);
      int most = 0;
      double sum = 0;
      for (std::size_t i = 0; i < images.size(); ++i) {
        const JpegImage& image = *images[i];
        cpu.decode_rgb(image.bytes.data(), image.bytes.size(), image.header, reference.data(),
                       speed);
        const LevelDifference one = compare_levels(&decoded[i * sample], reference.data(), sample);
        most = std::max(most, one.max);
        sum += one.mean * static_cast<double>(sample);
      }
      const double mean = sum / static_cast<double>(decoded.size());
      std::cout << "nvJPEG " << to_string(backend) << " vs libjpeg-turbo " << to_string(speed)
                << " on " << images.size() << " tiles of 256x256: max " << most << " levels, mean "
                << mean << "\n";
      RecordProperty(
          std::string(to_string(backend)) + "_vs_" + std::string(to_string(speed)) + "_max_levels",
          most);
      EXPECT_LT(mean, kProvisionalMeanLevels) << to_string(backend) << " vs " << to_string(speed);
    }
  }
}

TEST(DecodeFamilyGpu, CpuRoutesVerifyAndNvjpegRoutesRunOrSayWhy) {
  H2D_REQUIRE_GPU();
  const QuickRun run =
      run_quick("decode_family", "--filter '^h2d/decode/tiles=256x256/.*/batch=1$'");
  ASSERT_EQ(run.process.exit_code, 0) << run.process.output;
  const auto cpu_float32 =
      measured_entries(run.report, "h2d/decode/tiles=256x256/decode=cpu/normalize=cpu/");
  const auto cpu_uint8 =
      measured_entries(run.report, "h2d/decode/tiles=256x256/decode=cpu/normalize=gpu/");
  ASSERT_EQ(cpu_float32.size(), 1u) << run.process.output;
  ASSERT_EQ(cpu_uint8.size(), 1u) << run.process.output;
  EXPECT_EQ(cpu_float32[0]["bus_bytes_per_sample"].get<double>(), 256.0 * 256 * 3 * 4);
  EXPECT_EQ(cpu_uint8[0]["bus_bytes_per_sample"].get<double>(), 256.0 * 256 * 3);
  for (const auto& entry : {cpu_float32[0], cpu_uint8[0]}) {
    EXPECT_GT(entry["samples_per_s"].get<double>(), 0);
    EXPECT_GT(entry["decode_ms"].get<double>(), 0);
    EXPECT_LE(entry["max_abs_error"].get<double>(), entry["error_bound"].get<double>());
  }
  // The nvJPEG routes ran (fewer bytes than the pixels) or were skipped with a reason that names
  // nvJPEG or the JPEG engine.
  std::size_t nvjpeg_cases = 0;
  for (const char* backend : {"hybrid", "gpu_hybrid", "hardware"}) {
    const std::string name =
        std::string("h2d/decode/tiles=256x256/decode=") + backend + "/normalize=gpu/batch=1";
    for (const auto& entry : measured_entries(run.report, name)) {
      ++nvjpeg_cases;
      EXPECT_LT(entry["bus_bytes_per_sample"].get<double>(), 256.0 * 256 * 3);
      EXPECT_LE(entry["max_abs_error"].get<double>(), entry["error_bound"].get<double>());
    }
    for (const auto& skipped : run.report["h2dbench"]["skipped_cases"]) {
      if (skipped["name"] == name) {
        ++nvjpeg_cases;
        const std::string reason = skipped["reason"];
        EXPECT_TRUE(reason.find("nvJPEG") != std::string::npos ||
                    reason.find("JPEG decode engine") != std::string::npos)
            << reason;
      }
    }
  }
  EXPECT_EQ(nvjpeg_cases, 3u) << run.process.output;
}

}  // namespace
}  // namespace h2d
