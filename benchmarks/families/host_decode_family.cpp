// host/decode: what decoding JPEG tiles with libjpeg-turbo costs a data loader's CPU (no GPU
// needed): tiles/s and MB/s of decoded RGB pixels by host threads, by tile size, with the
// accurate and the fast options, and (one thread) by where the decoded pixels land. The images are
// the run's image set (--images DIR, else the generated tiles); the decoded pixels are checked
// against a first, untimed decode.

#include <fmt/format.h>

#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "harness/core/case_name.hpp"
#include "harness/core/checksum.hpp"
#include "harness/core/host_threads.hpp"
#include "harness/core/sample_series.hpp"
#include "harness/core/stopwatch.hpp"
#include "harness/core/verification.hpp"
#include "harness/decode/decoded_pixels.hpp"
#include "harness/decode/run_images.hpp"
#include "harness/decode/team_decode.hpp"
#include "harness/decode/tile_group.hpp"
#include "harness/measure/batch_timing.hpp"
#include "harness/measure/counters.hpp"
#include "harness/measure/measurement_loop.hpp"
#include "harness/suite/case_builder.hpp"
#include "harness/suite/family.hpp"
#include "harness/trace/nvtx.hpp"

namespace h2d {
namespace {

void run_host_decode_case(TileGroup group, DecodeSpeed speed, OutputPlacement placement,
                          std::size_t threads, benchmark::State& state,
                          const CaseContext& context) {
  std::optional<NvtxRange> setup(std::in_place, NvtxCategory::setup, "image set and buffers");
  const std::shared_ptr<const ImageSet> set = context.images->set();
  const std::vector<const JpegImage*> images = group_images(*set, group);
  if (images.empty()) {
    throw std::runtime_error(fmt::format("the image set has no {} image", group.key()));
  }
  std::vector<DecodedPixels> decoded;
  std::vector<std::uint8_t*> outputs;
  double rgb_bytes = 0;
  double jpeg_bytes = 0;
  for (const JpegImage* image : images) {
    decoded.emplace_back(image->header.rgb_bytes(), placement);
    outputs.push_back(decoded.back().data());
    rgb_bytes += static_cast<double>(image->header.rgb_bytes());
    jpeg_bytes += static_cast<double>(image->bytes.size());
  }
  TeamDecode team(threads);
  team.decode(images, outputs, speed);  // warm-up, and the reference the timed decodes must match
  std::vector<std::uint64_t> reference;
  for (const auto& pixels : decoded) {
    reference.push_back(host_checksum(pixels.data(), pixels.size()));
    std::memset(outputs[reference.size() - 1], 0, pixels.size());
  }
  setup.reset();

  SampleSeries series;
  double busy_s = 0;
  std::size_t decodes = 0;
  MeasurementLoop loop(state, context.stopping_rule);
  for (auto _ : loop) {
    NvtxRange range(NvtxCategory::compute, "decode on the CPU",
                    static_cast<std::size_t>(rgb_bytes));
    const Stopwatch watch;
    busy_s += team.decode(images, outputs, speed);
    const double seconds = watch.seconds();
    loop.record(seconds);
    series.add("batch", seconds);
    decodes += images.size();
  }

  for (std::size_t i = 0; i < images.size(); ++i) {
    verify_checksum(host_checksum(outputs[i], decoded[i].size()), reference[i],
                    fmt::format("decoded pixels of {}", images[i]->name));
  }
  const double median = series.median("batch");
  const auto count = static_cast<double>(images.size());
  write_batch_counters(state, series, images.size());
  set_counter(state, "tiles_per_s", count / median);
  set_counter(state, "decoded_MB_per_s", rgb_bytes / median / 1e6);
  set_counter(state, "Mpixels_per_s", rgb_bytes / 3 / median / 1e6);
  set_counter(state, "jpeg_MB_per_s", jpeg_bytes / median / 1e6);
  set_counter(state, "decode_us_per_tile", busy_s / static_cast<double>(decodes) * 1e6);
  set_counter(state, "mean_jpeg_bytes", jpeg_bytes / count);
  set_counter(state, "tiles", count);
}

std::vector<BenchmarkCase> host_decode_cases(const RunPlan& plan) {
  std::vector<BenchmarkCase> cases;
  for (const TileGroup& group : tile_groups(*plan.images)) {
    for (DecodeSpeed speed : {DecodeSpeed::accurate, DecodeSpeed::fast}) {
      for (OutputPlacement placement : {OutputPlacement::malloc, OutputPlacement::aligned64}) {
        for (std::size_t threads : host_thread_counts(plan.preset, usable_cores())) {
          // Where the pixels land is a property of one decode: one thread shows it.
          if (placement != OutputPlacement::malloc && threads != 1) {
            continue;
          }
          const CaseName name = CaseName(declared_family("host/decode"))
                                    .add("tiles", group.key())
                                    .add("speed", std::string(to_string(speed)))
                                    .add("out", std::string(to_string(placement)))
                                    .add("threads", static_cast<long long>(threads));
          cases.push_back(
              make_case(name,
                        {{"threads", static_cast<double>(threads)},
                         {"tile_width", static_cast<double>(group.width)},
                         {"tile_height", static_cast<double>(group.height)},
                         {"output_page_offset", static_cast<double>(page_offset(placement))}},
                        run_host_decode_case, group, speed, placement, threads));
        }
      }
    }
  }
  return cases;
}

[[maybe_unused]] const bool host_decode_registered = register_family({
    "host/decode",
    "JPEG decode with libjpeg-turbo by tile size, accurate vs fast options, output placement and "
    "threads (no GPU)",
    /*needs_gpu=*/false,
    host_decode_cases,
});

}  // namespace
}  // namespace h2d
