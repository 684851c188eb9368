// h2d/preprocess: where to normalize a batch of decoded images (the run's sample's image member:
// the tile's 3x512x512 by default, imagenet's 3x224x224 with --sample imagenet). cpu: normalize
// uint8 H×W×C into float32 C×H×W on the host, then send the floats; gpu: send the uint8 pixels (a
// quarter of the bytes) and normalize on the device. Each batch is timed whole, host work
// included; the result on the device is checked against the double-precision reference.

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "harness/batch/batch.hpp"
#include "harness/batch/sample_axes.hpp"
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
#include "harness/cuda/scoped_device.hpp"
#include "harness/cuda/stream_work_timing.hpp"
#include "harness/host/normalize.hpp"
#include "harness/host/team_memcpy.hpp"
#include "harness/host/thread_team.hpp"
#include "harness/measure/batch_timing.hpp"
#include "harness/measure/counters.hpp"
#include "harness/suite/case_builder.hpp"
#include "harness/suite/family.hpp"
#include "harness/trace/nvtx.hpp"
#include "kernels/normalize.cuh"

namespace h2d {
namespace {

constexpr std::uint64_t kPreprocessSeed = 0x4832445052455052ull;  // "H2DPREPR"

enum class Where { cpu, gpu };

struct PreprocessCase {
  int device = 0;
  SampleShape shape;  // the sample's image member
  Where where = Where::cpu;
  HostKind kind = HostKind::pinned;
  std::size_t batch = 1;
  std::size_t threads = 1;
};

void run_preprocess_case(const PreprocessCase& c, benchmark::State& state,
                         const CaseContext& context) {
  ScopedDevice on(c.device);
  const SampleShape& shape = c.shape;
  const ChannelStats stats = imagenet_stats();
  const NormalizeParams params = make_normalize_params(stats);
  const std::size_t pixel_bytes = c.batch * shape.values();  // uint8 H×W×C
  const std::size_t float_bytes = pixel_bytes * sizeof(float);
  const std::size_t bus_bytes = c.where == Where::cpu ? float_bytes : pixel_bytes;
  if (is_page_locked(c.kind)) {
    require_pinned_fits(bus_bytes,
                        fmt::format("a preprocess staging buffer of {}", format_bytes(bus_bytes)));
  }

  std::optional<NvtxRange> setup(std::in_place, NvtxCategory::setup, "allocate and fill");
  HostBuffer decoded(HostKind::pageable, pixel_bytes);         // the decoded images a loader holds
  fill_pattern(decoded.data(), pixel_bytes, kPreprocessSeed);  // every byte value, spread
  HostBuffer staging(c.kind, bus_bytes);
  std::memset(staging.data(), 0, bus_bytes);
  DeviceBuffer device_pixels;
  if (c.where == Where::gpu) {
    device_pixels = DeviceBuffer(c.device, pixel_bytes);
  }
  const DeviceBuffer device_floats(c.device, float_bytes);
  const Stream stream(c.device);
  const Event start(c.device);
  const Event h2d_done(c.device);
  const Event stop(c.device);
  StreamLatch latch(c.device, context.latching);
  ThreadTeam team(c.threads, "preprocess");
  const auto* pixels = reinterpret_cast<const std::uint8_t*>(decoded.data());
  const bool latched =
      context.latching == Latching::on && actual_kind(staging.data()) == ActualKind::pinned;

  // One batch: the host work (normalize, or collate the pixels), then the copy and, for gpu,
  // the normalize kernel; returns the host work's seconds. The stream is synchronized after.
  const auto run_batch = [&](StreamLatch* with_latch) {
    Stopwatch watch;
    if (c.where == Where::cpu) {
      NvtxRange range(NvtxCategory::compute, "normalize on the CPU", float_bytes);
      normalize_batch(team, pixels, reinterpret_cast<float*>(staging.data()), c.batch, shape,
                      params);
    } else {
      NvtxRange range(NvtxCategory::collate, "collate pixels", pixel_bytes);
      team_memcpy(team, staging.data(), decoded.data(), pixel_bytes);
    }
    const double host_prep = watch.seconds();
    time_stream_work(
        [&] {
          std::byte* target = c.where == Where::cpu ? device_floats.data() : device_pixels.data();
          H2D_CUDA_CHECK(cudaMemcpyAsync(target, staging.data(), bus_bytes, cudaMemcpyHostToDevice,
                                         stream.get()));
          h2d_done.record(stream.get());
          if (c.where == Where::gpu) {
            H2D_CUDA_CHECK(kernels::launch_normalize(
                reinterpret_cast<const unsigned char*>(device_pixels.data()),
                reinterpret_cast<float*>(device_floats.data()), c.batch, shape.height, shape.width,
                params, stream.get()));
          }
        },
        with_latch, stream, start, stop);
    return host_prep;
  };
  run_batch(nullptr);  // warm-up
  // Zeros in every stage the warm-up filled, so the check below sees only what the timed batches
  // did: without them a gpu batch whose pixel copy (or collate) stopped would still normalize the
  // warm-up's pixels into correct floats, and a cpu batch whose normalize stopped would still send
  // the warm-up's floats.
  std::memset(staging.data(), 0, bus_bytes);
  if (c.where == Where::gpu) {
    device_zero(device_pixels.data(), pixel_bytes, stream);
  }
  device_zero(device_floats.data(), float_bytes, stream);
  setup.reset();

  double host_prep = 0;
  const SampleSeries series = time_batches(
      state, context.stopping_rule, [&] { host_prep = run_batch(latched ? &latch : nullptr); },
      [&](SampleSeries& figures) {
        const double copy = elapsed_ms(start, h2d_done) / 1e3;
        figures.add("host_prep", host_prep);
        figures.add("copy", copy);
        figures.add("GB_per_s", gb_per_s(static_cast<double>(bus_bytes), copy));
        if (c.where == Where::gpu) {
          figures.add("gpu_normalize", elapsed_ms(h2d_done, stop) / 1e3);
        }
      });

  double error = 0;
  const double bound = normalize_error_bound(params);
  {
    NvtxRange verify(NvtxCategory::verify, "compare with the reference");
    std::vector<float> result(c.batch * shape.values());
    H2D_CUDA_CHECK(
        cudaMemcpy(result.data(), device_floats.data(), float_bytes, cudaMemcpyDeviceToHost));
    error = max_abs_error(result.data(), pixels, c.batch, shape, stats);
    if (!(error <= bound)) {
      throw VerificationError(fmt::format(
          "normalized batch on the device is off by {:.3g}, more than float32 rounding ({:.3g})",
          error, bound));
    }
  }

  write_batch_counters(state, series, c.batch);
  set_counter(state, "host_prep_ms", series.median("host_prep") * 1e3);
  set_counter(state, "copy_ms", series.median("copy") * 1e3);
  set_counter(state, "GB_per_s", series.median("GB_per_s"));
  if (c.where == Where::gpu) {
    set_counter(state, "gpu_normalize_ms", series.median("gpu_normalize") * 1e3);
  }
  set_counter(state, "bus_bytes", static_cast<double>(bus_bytes));
  set_counter(state, "max_abs_error", error);
  set_counter(state, "error_bound", bound);
  set_counter(state, "latched", latched ? 1 : 0);
}

std::vector<HostKind> preprocess_kinds(Preset preset) {
  if (preset == Preset::quick) {
    return {HostKind::pinned};
  }
  return {HostKind::pageable, HostKind::pinned};
}

// The shape of the sample's image member (select_cases skips the family where it has none).
SampleShape image_shape(const SampleSpec& sample) {
  const MemberSpec& image = sample.members.at(image_member(sample).value());
  return {image.shape[0].low, image.shape[1].low, image.shape[2].low};
}

std::vector<BenchmarkCase> preprocess_cases(const RunPlan& plan) {
  std::vector<BenchmarkCase> cases;
  if (!image_member(plan.sample)) {
    return cases;
  }
  const SampleShape shape = image_shape(plan.sample);
  const std::size_t threads = usable_cores();
  for (const DeviceInfo& gpu : plan.devices) {
    for (Where where : {Where::cpu, Where::gpu}) {
      for (HostKind kind : preprocess_kinds(plan.preset)) {
        for (std::size_t batch : batch_sizes(plan.preset)) {
          CaseName name = case_name_on("h2d/preprocess", plan, gpu);
          add_sample_axis(name, plan.sample);
          name.add("where", where == Where::cpu ? "cpu" : "gpu")
              .add("mem", std::string(to_string(kind)))
              .add("batch", static_cast<long long>(batch));
          cases.push_back(
              make_case(name,
                        {{"gpu", gpu.ordinal},
                         {"batch_size", static_cast<double>(batch)},
                         {"threads", static_cast<double>(threads)}},
                        run_preprocess_case,
                        PreprocessCase{gpu.ordinal, shape, where, kind, batch, threads}));
        }
      }
    }
  }
  return cases;
}

[[maybe_unused]] const bool preprocess_registered = register_family({
    "h2d/preprocess",
    "normalize uint8 images on the CPU and send float32, or send uint8 and normalize on the GPU",
    /*needs_gpu=*/true,
    preprocess_cases,
    SampleUse::image,
});

}  // namespace
}  // namespace h2d
