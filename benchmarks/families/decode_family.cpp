// h2d/decode: where to decode a batch of JPEG tiles, by what crosses the bus. decode=cpu with
// normalize=cpu: libjpeg-turbo and the normalize on the host, float32 over the bus; decode=cpu with
// normalize=gpu: uint8 pixels over the bus (a quarter of the bytes), normalized on the device;
// decode=hybrid|gpu_hybrid|hardware: the JPEG bytes (about a tenth of the pixels) handed to nvJPEG,
// which copies them and decodes on the device, then the GPU normalize. Each batch is timed whole,
// host work included, as h2d/preprocess does; the floats on the device are checked after the run.

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <cstdlib>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/batch/batch.hpp"
#include "harness/core/byte_size.hpp"
#include "harness/core/case_name.hpp"
#include "harness/core/checksum.hpp"
#include "harness/core/host_threads.hpp"
#include "harness/core/pinned_fit.hpp"
#include "harness/core/sample_series.hpp"
#include "harness/core/stopwatch.hpp"
#include "harness/core/verification.hpp"
#include "harness/cuda/cuda_error.hpp"
#include "harness/cuda/device_buffer.hpp"
#include "harness/cuda/device_pattern.hpp"
#include "harness/cuda/host_memory.hpp"
#include "harness/cuda/latch.hpp"
#include "harness/cuda/nvjpeg/gpu_jpeg_decoder.hpp"
#include "harness/cuda/scoped_device.hpp"
#include "harness/cuda/stream_work_timing.hpp"
#include "harness/decode/decoded_pixels.hpp"
#include "harness/decode/jpeg_decoder.hpp"
#include "harness/decode/level_difference.hpp"
#include "harness/decode/run_images.hpp"
#include "harness/decode/team_decode.hpp"
#include "harness/decode/tile_group.hpp"
#include "harness/host/normalize.hpp"
#include "harness/host/thread_team.hpp"
#include "harness/measure/batch_timing.hpp"
#include "harness/measure/counters.hpp"
#include "harness/suite/case_builder.hpp"
#include "harness/suite/family.hpp"
#include "harness/trace/nvtx.hpp"
#include "kernels/normalize.cuh"

namespace h2d {
namespace {

// What crosses the bus: float32 normalized on the host, uint8 pixels, or the JPEG bytes.
enum class Route { cpu_float32, cpu_uint8, jpeg };

struct DecodeCase {
  int device = 0;
  TileGroup group;
  Route route = Route::cpu_float32;
  JpegBackend backend = JpegBackend::hybrid;  // route jpeg only
  std::size_t batch = 1;
  std::size_t threads = 1;
};

// The batch: sample i is image i of the group, round and round.
std::vector<const JpegImage*> batch_images(const ImageSet& set, const TileGroup& group,
                                           std::size_t batch) {
  const std::vector<const JpegImage*> all = group_images(set, group);
  if (all.empty()) {
    throw std::runtime_error(fmt::format("the image set has no {} image", group.key()));
  }
  std::vector<const JpegImage*> images;
  for (std::size_t i = 0; i < batch; ++i) {
    images.push_back(all[i % all.size()]);
  }
  return images;
}

// libjpeg-turbo's decode of the batch (accurate options): what the CPU routes must produce, and
// what nvJPEG's pixels are compared with.
std::vector<std::uint8_t> turbojpeg_pixels(const std::vector<const JpegImage*>& images) {
  std::vector<std::uint8_t> pixels;
  JpegDecoder decoder;
  for (const JpegImage* image : images) {
    const std::size_t at = pixels.size();
    pixels.resize(at + image->header.rgb_bytes());
    decoder.decode_rgb(image->bytes.data(), image->bytes.size(), image->header, &pixels[at],
                       DecodeSpeed::accurate);
  }
  return pixels;
}

std::vector<std::uint8_t> copy_to_host(const DeviceBuffer& from, std::size_t bytes) {
  std::vector<std::uint8_t> to(bytes);
  H2D_CUDA_CHECK(cudaMemcpy(to.data(), from.data(), bytes, cudaMemcpyDeviceToHost));
  return to;
}

void run_decode_case(const DecodeCase& c, benchmark::State& state, const CaseContext& context) {
  ScopedDevice on(c.device);
  std::optional<NvtxRange> setup(std::in_place, NvtxCategory::setup, "images and buffers");
  // First, so a build or a GPU without nvJPEG (or its hardware engine) skips before allocating.
  std::optional<GpuJpegDecoder> gpu_decoder;
  if (c.route == Route::jpeg) {
    gpu_decoder.emplace(c.device, c.backend);
  }
  const std::vector<const JpegImage*> images =
      batch_images(*context.images->set(), c.group, c.batch);
  const SampleShape shape{3, c.group.height, c.group.width};
  const ChannelStats stats = imagenet_stats();
  const NormalizeParams params = make_normalize_params(stats);
  const std::size_t sample_bytes = shape.values();  // uint8 H×W×C
  const std::size_t pixel_bytes = c.batch * sample_bytes;
  const std::size_t float_bytes = pixel_bytes * sizeof(float);
  std::size_t jpeg_bytes = 0;
  for (const JpegImage* image : images) {
    jpeg_bytes += image->bytes.size();
  }
  const std::size_t bus_bytes = c.route == Route::cpu_float32 ? float_bytes
                                : c.route == Route::cpu_uint8 ? pixel_bytes
                                                              : jpeg_bytes;
  require_pinned_fits(bus_bytes,
                      fmt::format("a decode staging buffer of {}", format_bytes(bus_bytes)));

  const std::vector<std::uint8_t> reference = turbojpeg_pixels(images);
  HostBuffer staging(HostKind::pinned, bus_bytes);
  std::memset(staging.data(), 0, bus_bytes);
  // A loader's decoded images, in pageable memory placed as a large malloc block (host/decode's
  // out=malloc). The cpu/gpu route decodes straight into the pinned staging buffer instead.
  DecodedPixels decoded(c.route == Route::cpu_float32 ? pixel_bytes : 0);
  DeviceBuffer device_pixels;
  if (c.route != Route::cpu_float32) {
    device_pixels = DeviceBuffer(c.device, pixel_bytes);
  }
  const DeviceBuffer device_floats(c.device, float_bytes);
  // Where each sample goes: the host decode's outputs, or nvJPEG's inputs and outputs.
  std::vector<std::uint8_t*> host_outputs;
  auto* jpeg_staging = reinterpret_cast<std::uint8_t*>(staging.data());
  std::vector<std::size_t> jpeg_offsets;
  std::vector<JpegBytes> jpegs;
  std::vector<std::byte*> device_outputs;
  std::size_t jpeg_at = 0;
  for (std::size_t i = 0; i < c.batch; ++i) {
    auto* into = c.route == Route::cpu_float32 ? decoded.data()
                                               : reinterpret_cast<std::uint8_t*>(staging.data());
    host_outputs.push_back(into + i * sample_bytes);
    if (c.route == Route::jpeg) {
      const JpegImage& image = *images[i];
      jpeg_offsets.push_back(jpeg_at);
      jpegs.push_back(
          {jpeg_staging + jpeg_at, image.bytes.size(), image.header.width, image.header.height});
      jpeg_at += image.bytes.size();
      device_outputs.push_back(device_pixels.data() + i * sample_bytes);
    }
  }
  const Stream stream(c.device);
  const Event start(c.device);
  const Event arrived(c.device);  // the pixels (or floats) are on the device
  const Event stop(c.device);
  StreamLatch latch(c.device, context.latching);
  TeamDecode decode_team(c.threads);
  ThreadTeam normalize_team(c.threads, "normalize");
  // nvJPEG may wait on its own work inside the call: never behind a latch.
  const bool latched = c.route != Route::jpeg && context.latching == Latching::on &&
                       actual_kind(staging.data()) == ActualKind::pinned;

  // One batch: the host work (decode, and normalize for cpu_float32; or collate the JPEG bytes),
  // then the copy or nvJPEG, and the normalize kernel. Returns the host decode's seconds.
  const auto run_batch = [&](StreamLatch* with_latch) {
    double host_decode = 0;
    if (c.route == Route::jpeg) {
      NvtxRange range(NvtxCategory::collate, "collate JPEG bytes", jpeg_bytes);
      for (std::size_t i = 0; i < c.batch; ++i) {
        std::memcpy(jpeg_staging + jpeg_offsets[i], images[i]->bytes.data(), jpegs[i].size);
      }
    } else {
      NvtxRange range(NvtxCategory::compute, "decode on the CPU", pixel_bytes);
      const Stopwatch watch;
      decode_team.decode(images, host_outputs, DecodeSpeed::accurate);
      host_decode = watch.seconds();
    }
    if (c.route == Route::cpu_float32) {
      NvtxRange range(NvtxCategory::compute, "normalize on the CPU", float_bytes);
      normalize_batch(normalize_team, decoded.data(), reinterpret_cast<float*>(staging.data()),
                      c.batch, shape, params);
    }
    time_stream_work(
        [&] {
          if (c.route == Route::jpeg) {
            gpu_decoder->decode(jpegs, device_outputs, RgbLayout::interleaved, stream.get());
          } else {
            std::byte* target =
                c.route == Route::cpu_float32 ? device_floats.data() : device_pixels.data();
            H2D_CUDA_CHECK(cudaMemcpyAsync(target, staging.data(), bus_bytes,
                                           cudaMemcpyHostToDevice, stream.get()));
          }
          arrived.record(stream.get());
          if (c.route != Route::cpu_float32) {
            H2D_CUDA_CHECK(kernels::launch_normalize(
                reinterpret_cast<const unsigned char*>(device_pixels.data()),
                reinterpret_cast<float*>(device_floats.data()), c.batch, shape.height, shape.width,
                params, stream.get()));
          }
        },
        with_latch, stream, start, stop);
    return host_decode;
  };
  run_batch(nullptr);  // warm-up (nvJPEG allocates its buffers here)
  // nvJPEG's pixels of the warm-up: every timed batch must decode to the same (it is
  // deterministic); then zeros everywhere, so the checks below see only what the timed batches did.
  std::optional<std::uint64_t> gpu_pixels_checksum;
  if (c.route == Route::jpeg) {
    gpu_pixels_checksum = device_checksum(device_pixels.data(), pixel_bytes, stream);
  }
  std::memset(staging.data(), 0, bus_bytes);
  if (c.route != Route::cpu_float32) {
    device_zero(device_pixels.data(), pixel_bytes, stream);
  }
  device_zero(device_floats.data(), float_bytes, stream);
  setup.reset();

  double host_decode = 0;
  const SampleSeries series = time_batches(
      state, context.stopping_rule, [&] { host_decode = run_batch(latched ? &latch : nullptr); },
      [&](SampleSeries& figures) {
        const double to_device = elapsed_ms(start, arrived) / 1e3;
        if (c.route == Route::jpeg) {
          figures.add("decode", to_device);  // nvJPEG's copies and decode, its CPU part included
        } else {
          figures.add("decode", host_decode);
          figures.add("copy", to_device);
          figures.add("copy_GB_per_s", gb_per_s(static_cast<double>(bus_bytes), to_device));
        }
        if (c.route != Route::cpu_float32) {
          figures.add("gpu_normalize", elapsed_ms(arrived, stop) / 1e3);
        }
      });

  // The floats must be the normalize of the pixels that reached the device: libjpeg-turbo's for
  // the CPU routes, nvJPEG's (checked against the warm-up's) for the GPU ones.
  double error = 0;
  int level_difference = 0;
  const double bound = normalize_error_bound(params);
  {
    NvtxRange verify(NvtxCategory::verify, "compare with the reference");
    std::vector<std::uint8_t> gpu_pixels;
    if (c.route == Route::jpeg) {
      verify_checksum(device_checksum(device_pixels.data(), pixel_bytes, stream),
                      *gpu_pixels_checksum, "pixels nvJPEG decoded on the device");
      gpu_pixels = copy_to_host(device_pixels, pixel_bytes);
      if (gpu_pixels.size() != reference.size()) {  // the same tiles: a mismatch is a bug here
        throw std::logic_error(
            fmt::format("h2d/decode: {} bytes decoded by nvJPEG, {} by libjpeg-turbo",
                        gpu_pixels.size(), reference.size()));
      }
      level_difference = compare_levels(gpu_pixels.data(), reference.data(), reference.size()).max;
    }
    std::vector<float> result(c.batch * shape.values());
    H2D_CUDA_CHECK(
        cudaMemcpy(result.data(), device_floats.data(), float_bytes, cudaMemcpyDeviceToHost));
    error =
        max_abs_error(result.data(), c.route == Route::jpeg ? gpu_pixels.data() : reference.data(),
                      c.batch, shape, stats);
    if (!(error <= bound)) {
      throw VerificationError(fmt::format(
          "normalized batch on the device is off by {:.3g}, more than float32 rounding ({:.3g})",
          error, bound));
    }
  }

  write_batch_counters(state, series, c.batch);
  set_counter(state, "bus_bytes_per_sample",
              static_cast<double>(bus_bytes) / static_cast<double>(c.batch));
  set_counter(state, "GB_per_s", gb_per_s(static_cast<double>(bus_bytes), series.median("batch")));
  set_counter(state, "decode_ms", series.median("decode") * 1e3);
  if (c.route != Route::jpeg) {
    set_counter(state, "copy_ms", series.median("copy") * 1e3);
    set_counter(state, "copy_GB_per_s", series.median("copy_GB_per_s"));
  } else {
    set_counter(state, "max_level_diff_vs_turbojpeg", level_difference);
  }
  if (c.route != Route::cpu_float32) {
    set_counter(state, "gpu_normalize_ms", series.median("gpu_normalize") * 1e3);
  }
  set_counter(state, "mean_jpeg_bytes",
              static_cast<double>(jpeg_bytes) / static_cast<double>(c.batch));
  set_counter(state, "max_abs_error", error);
  set_counter(state, "error_bound", bound);
  set_counter(state, "latched", latched ? 1 : 0);
}

struct RouteChoice {
  Route route;
  JpegBackend backend;
  const char* decode;
  const char* normalize;
};

std::vector<RouteChoice> route_choices() {
  return {{Route::cpu_float32, JpegBackend::hybrid, "cpu", "cpu"},
          {Route::cpu_uint8, JpegBackend::hybrid, "cpu", "gpu"},
          {Route::jpeg, JpegBackend::hybrid, "hybrid", "gpu"},
          {Route::jpeg, JpegBackend::gpu_hybrid, "gpu_hybrid", "gpu"},
          {Route::jpeg, JpegBackend::hardware, "hardware", "gpu"}};
}

std::vector<BenchmarkCase> decode_cases(const RunPlan& plan) {
  std::vector<BenchmarkCase> cases;
  const std::size_t threads = usable_cores();
  for (const DeviceInfo& gpu : plan.devices) {
    for (const TileGroup& group : uniform_tile_groups(*plan.images)) {
      for (const RouteChoice& choice : route_choices()) {
        for (std::size_t batch : batch_sizes(plan.preset)) {
          const CaseName name = case_name_on("h2d/decode", plan, gpu)
                                    .add("tiles", group.key())
                                    .add("decode", choice.decode)
                                    .add("normalize", choice.normalize)
                                    .add("batch", static_cast<long long>(batch));
          cases.push_back(make_case(
              name,
              {{"gpu", gpu.ordinal},
               {"batch_size", static_cast<double>(batch)},
               {"threads", static_cast<double>(threads)},
               {"tile_width", static_cast<double>(group.width)},
               {"tile_height", static_cast<double>(group.height)}},
              run_decode_case,
              DecodeCase{gpu.ordinal, group, choice.route, choice.backend, batch, threads}));
        }
      }
    }
  }
  return cases;
}

[[maybe_unused]] const bool decode_registered = register_family({
    "h2d/decode",
    "decode JPEG tiles on the CPU and send float32 or uint8, or send the JPEG bytes and decode "
    "on the GPU with nvJPEG",
    /*needs_gpu=*/true,
    decode_cases,
});

}  // namespace
}  // namespace h2d
