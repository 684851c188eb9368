// h2d/decode: where to decode a batch of JPEG tiles, by what crosses the bus. decode=cpu with
// normalize=cpu: libjpeg-turbo and the normalize on the host, float32 over the bus; decode=cpu with
// normalize=gpu: uint8 pixels over the bus (a quarter of the bytes), normalized on the device;
// decode=hybrid|gpu_hybrid|hardware: the JPEG bytes (about a tenth of the pixels) handed to nvJPEG,
// which copies them and decodes on the device, then the GPU normalize. Each batch is timed whole,
// host work included, as h2d/preprocess does; the floats on the device are checked after the run.

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "benchmarks/families/decode_routes.hpp"
#include "harness/batch/batch.hpp"
#include "harness/core/byte_size.hpp"
#include "harness/core/case_name.hpp"
#include "harness/core/host_threads.hpp"
#include "harness/core/pinned_fit.hpp"
#include "harness/core/sample_series.hpp"
#include "harness/core/verification.hpp"
#include "harness/cuda/cuda_error.hpp"
#include "harness/cuda/device_buffer.hpp"
#include "harness/cuda/device_pattern.hpp"
#include "harness/cuda/host_memory.hpp"
#include "harness/cuda/latch.hpp"
#include "harness/cuda/scoped_device.hpp"
#include "harness/cuda/stream_work_timing.hpp"
#include "harness/decode/jpeg_decoder.hpp"
#include "harness/decode/run_images.hpp"
#include "harness/decode/tile_group.hpp"
#include "harness/host/normalize.hpp"
#include "harness/measure/batch_timing.hpp"
#include "harness/measure/counters.hpp"
#include "harness/suite/case_builder.hpp"
#include "harness/suite/family.hpp"
#include "harness/trace/nvtx.hpp"
#include "kernels/normalize.cuh"

namespace h2d {
namespace {

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

// The skeleton every route runs in (decode_routes.hpp says what differs): the host's part of a
// batch into pinned staging, then on one stream the route's way onto the device and, where pixels
// arrived, the normalize kernel; batches timed until the stopping rule says so; then the floats on
// the device checked against the normalize of the pixels they came from.
void run_decode_case(const DecodeCase& c, benchmark::State& state, const CaseContext& context) {
  ScopedDevice on(c.device);
  std::optional<NvtxRange> setup(std::in_place, NvtxCategory::setup, "images and buffers");
  const std::unique_ptr<DecodeRoute> route = make_decode_route(c.route, c.backend, c.device);
  DecodeBatch batch;
  batch.device = c.device;
  batch.images = batch_images(*context.images->set(), c.group, c.batch);
  batch.shape = SampleShape{3, c.group.height, c.group.width};
  batch.threads = c.threads;
  const ChannelStats stats = imagenet_stats();
  const NormalizeParams params = make_normalize_params(stats);
  const std::size_t bus_bytes = route->bus_bytes(batch);
  require_pinned_fits(bus_bytes,
                      fmt::format("a decode staging buffer of {}", format_bytes(bus_bytes)));

  const std::vector<std::uint8_t> reference = turbojpeg_pixels(batch.images);
  HostBuffer staging(HostKind::pinned, bus_bytes);
  std::memset(staging.data(), 0, bus_bytes);
  route->prepare(batch, staging.data());
  const DeviceBuffer device_floats(c.device, batch.float_bytes());
  const DeviceBuffer* device_pixels = route->device_pixels();
  const Stream stream(c.device);
  const Event start(c.device);
  const Event arrived(c.device);  // the pixels (or floats) are on the device
  const Event stop(c.device);
  StreamLatch latch(c.device, context.latching);
  const bool latched = route->may_latch() && context.latching == Latching::on &&
                       actual_kind(staging.data()) == ActualKind::pinned;

  // One batch: the host's part, then the route's way onto the device and the normalize kernel.
  // Returns the host decode's seconds.
  const auto run_batch = [&](StreamLatch* with_latch) {
    const double host_decode = route->host_part();
    time_stream_work(
        [&] {
          route->enqueue_to_device(device_floats, stream.get());
          arrived.record(stream.get());
          if (device_pixels != nullptr) {
            H2D_CUDA_CHECK(kernels::launch_normalize(
                reinterpret_cast<const unsigned char*>(device_pixels->data()),
                reinterpret_cast<float*>(device_floats.data()), c.batch, batch.shape.height,
                batch.shape.width, params, stream.get()));
          }
        },
        with_latch, stream, start, stop);
    return host_decode;
  };
  run_batch(nullptr);  // warm-up (nvJPEG allocates its buffers here)
  // Zeros everywhere, so the checks below see only what the timed batches did.
  route->after_warm_up(stream);
  std::memset(staging.data(), 0, bus_bytes);
  device_zero(device_floats.data(), batch.float_bytes(), stream);
  setup.reset();

  double host_decode = 0;
  const SampleSeries series = time_batches(
      state, context.stopping_rule, [&] { host_decode = run_batch(latched ? &latch : nullptr); },
      [&](SampleSeries& figures) {
        route->add_figures(figures, host_decode, elapsed_ms(start, arrived) / 1e3);
        if (device_pixels != nullptr) {
          figures.add("gpu_normalize", elapsed_ms(arrived, stop) / 1e3);
        }
      });

  // The floats must be the normalize of the pixels that reached the device.
  double error = 0;
  const double bound = normalize_error_bound(params);
  {
    NvtxRange verify(NvtxCategory::verify, "compare with the reference");
    const std::vector<std::uint8_t> pixels = route->pixels_to_check(reference, stream);
    std::vector<float> result(batch.float_bytes() / sizeof(float));
    H2D_CUDA_CHECK(cudaMemcpy(result.data(), device_floats.data(), batch.float_bytes(),
                              cudaMemcpyDeviceToHost));
    error = max_abs_error(result.data(), pixels.data(), c.batch, batch.shape, stats);
    if (!(error <= bound)) {
      throw VerificationError(fmt::format(
          "normalized batch on the device is off by {:.3g}, more than float32 rounding ({:.3g})",
          error, bound));
    }
  }

  write_batch_counters(state, series, c.batch);
  route->write_counters(state, series);
  set_counter(state, "bus_bytes_per_sample",
              static_cast<double>(bus_bytes) / static_cast<double>(c.batch));
  set_counter(state, "GB_per_s", gb_per_s(static_cast<double>(bus_bytes), series.median("batch")));
  set_counter(state, "decode_ms", series.median("decode") * 1e3);
  if (device_pixels != nullptr) {
    set_counter(state, "gpu_normalize_ms", series.median("gpu_normalize") * 1e3);
  }
  set_counter(state, "mean_jpeg_bytes",
              static_cast<double>(batch.jpeg_bytes()) / static_cast<double>(c.batch));
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
