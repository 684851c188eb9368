#include "benchmarks/families/decode_routes.hpp"

#include <fmt/format.h>

#include <cstring>
#include <optional>
#include <stdexcept>

#include "harness/core/byte_size.hpp"
#include "harness/core/checksum.hpp"
#include "harness/core/stopwatch.hpp"
#include "harness/core/verification.hpp"
#include "harness/cuda/cuda_error.hpp"
#include "harness/cuda/device_pattern.hpp"
#include "harness/decode/decoded_pixels.hpp"
#include "harness/decode/level_difference.hpp"
#include "harness/decode/team_decode.hpp"
#include "harness/host/normalize.hpp"
#include "harness/host/thread_team.hpp"
#include "harness/measure/counters.hpp"
#include "harness/trace/nvtx.hpp"

namespace h2d {

std::size_t DecodeBatch::jpeg_bytes() const {
  std::size_t bytes = 0;
  for (const JpegImage* image : images) {
    bytes += image->bytes.size();
  }
  return bytes;
}

namespace {

// The CPU routes: libjpeg-turbo decodes the batch on the host (accurate options, `threads`
// threads) and a copy takes it to the device; the figures split the batch into decode and copy.
class HostDecodeRoute : public DecodeRoute {
 public:
  bool may_latch() const override { return true; }

  void add_figures(SampleSeries& figures, double host_decode, double to_device) const override {
    figures.add("decode", host_decode);
    figures.add("copy", to_device);
    figures.add("copy_GB_per_s", gb_per_s(static_cast<double>(bus_bytes(*batch_)), to_device));
  }

  std::vector<std::uint8_t> pixels_to_check(const std::vector<std::uint8_t>& reference,
                                            const Stream& /*stream*/) override {
    return reference;
  }

  void write_counters(benchmark::State& state, const SampleSeries& series) const override {
    set_counter(state, "copy_ms", series.median("copy") * 1e3);
    set_counter(state, "copy_GB_per_s", series.median("copy_GB_per_s"));
  }

 protected:
  void prepare_decode(const DecodeBatch& batch, std::byte* staging) {
    batch_ = &batch;
    staging_ = staging;
    decode_team_.emplace(batch.threads);
  }

  // Decodes the batch into `first_output` (the samples one after the other); its seconds.
  double decode_into(std::uint8_t* first_output) {
    std::vector<std::uint8_t*> outputs;
    for (std::size_t i = 0; i < batch_->size(); ++i) {
      outputs.push_back(first_output + i * batch_->sample_bytes());
    }
    NvtxRange range(NvtxCategory::compute, "decode on the CPU", batch_->pixel_bytes());
    const Stopwatch watch;
    decode_team_->decode(batch_->images, outputs, DecodeSpeed::accurate);
    return watch.seconds();
  }

  const DecodeBatch* batch_ = nullptr;
  std::byte* staging_ = nullptr;

 private:
  std::optional<TeamDecode> decode_team_;
};

// decode=cpu normalize=cpu: a loader's decoded images in pageable memory placed as a large malloc
// block (host/decode's out=malloc), normalized on the host into the staging buffer; float32 crosses
// the bus.
class CpuFloat32Route final : public HostDecodeRoute {
 public:
  std::size_t bus_bytes(const DecodeBatch& batch) const override { return batch.float_bytes(); }

  void prepare(const DecodeBatch& batch, std::byte* staging) override {
    prepare_decode(batch, staging);
    decoded_.emplace(batch.pixel_bytes());
    normalize_team_.emplace(batch.threads, "normalize");
    params_ = make_normalize_params(imagenet_stats());
  }

  double host_part() override {
    const double seconds = decode_into(decoded_->data());
    NvtxRange range(NvtxCategory::compute, "normalize on the CPU", batch_->float_bytes());
    normalize_batch(*normalize_team_, decoded_->data(), reinterpret_cast<float*>(staging_),
                    batch_->size(), batch_->shape, params_);
    return seconds;
  }

  void enqueue_to_device(const DeviceBuffer& floats, cudaStream_t stream) override {
    H2D_CUDA_CHECK(cudaMemcpyAsync(floats.data(), staging_, batch_->float_bytes(),
                                   cudaMemcpyHostToDevice, stream));
  }

  void after_warm_up(const Stream& /*stream*/) override {}

 private:
  std::optional<DecodedPixels> decoded_;
  std::optional<ThreadTeam> normalize_team_;
  NormalizeParams params_{};
};

// decode=cpu normalize=gpu: decoded straight into the staging buffer; uint8 crosses the bus (a
// quarter of the bytes) and the device normalizes.
class CpuUint8Route final : public HostDecodeRoute {
 public:
  std::size_t bus_bytes(const DecodeBatch& batch) const override { return batch.pixel_bytes(); }

  void prepare(const DecodeBatch& batch, std::byte* staging) override {
    prepare_decode(batch, staging);
    pixels_ = DeviceBuffer(batch.device, batch.pixel_bytes());
  }

  double host_part() override { return decode_into(reinterpret_cast<std::uint8_t*>(staging_)); }

  void enqueue_to_device(const DeviceBuffer& /*floats*/, cudaStream_t stream) override {
    H2D_CUDA_CHECK(cudaMemcpyAsync(pixels_.data(), staging_, batch_->pixel_bytes(),
                                   cudaMemcpyHostToDevice, stream));
  }

  const DeviceBuffer* device_pixels() const override { return &pixels_; }

  void after_warm_up(const Stream& stream) override {
    device_zero(pixels_.data(), batch_->pixel_bytes(), stream);
  }

 private:
  DeviceBuffer pixels_;
};

// decode=hybrid|gpu_hybrid|hardware: the JPEG bytes (about a tenth of the pixels) collated into
// the staging buffer and handed to nvJPEG, which copies them and decodes on the device.
class JpegRoute final : public DecodeRoute {
 public:
  JpegRoute(int device, JpegBackend backend) : decoder_(device, backend) {}

  std::size_t bus_bytes(const DecodeBatch& batch) const override { return batch.jpeg_bytes(); }
  bool may_latch() const override { return false; }

  void prepare(const DecodeBatch& batch, std::byte* staging) override {
    batch_ = &batch;
    pixels_ = DeviceBuffer(batch.device, batch.pixel_bytes());
    auto* at = reinterpret_cast<std::uint8_t*>(staging);
    for (std::size_t i = 0; i < batch.size(); ++i) {  // nvJPEG reads each image where it is staged
      const JpegImage& image = *batch.images[i];
      staged_.push_back(at);
      jpegs_.push_back({at, image.bytes.size(), image.header.width, image.header.height});
      at += image.bytes.size();
      outputs_.push_back(pixels_.data() + i * batch.sample_bytes());
    }
  }

  double host_part() override {
    NvtxRange range(NvtxCategory::collate, "collate JPEG bytes", bus_bytes(*batch_));
    for (std::size_t i = 0; i < batch_->size(); ++i) {
      std::memcpy(staged_[i], batch_->images[i]->bytes.data(), jpegs_[i].size);
    }
    return 0;
  }

  void enqueue_to_device(const DeviceBuffer& /*floats*/, cudaStream_t stream) override {
    decoder_.decode(jpegs_, outputs_, RgbLayout::interleaved, stream);
  }

  const DeviceBuffer* device_pixels() const override { return &pixels_; }

  void after_warm_up(const Stream& stream) override {
    // nvJPEG is deterministic: every timed batch must decode to the warm-up's pixels.
    warm_up_checksum_ = device_checksum(pixels_.data(), batch_->pixel_bytes(), stream);
    device_zero(pixels_.data(), batch_->pixel_bytes(), stream);
  }

  void add_figures(SampleSeries& figures, double /*host_decode*/, double to_device) const override {
    figures.add("decode", to_device);  // nvJPEG's copies and decode, its CPU part included
  }

  std::vector<std::uint8_t> pixels_to_check(const std::vector<std::uint8_t>& reference,
                                            const Stream& stream) override {
    verify_checksum(device_checksum(pixels_.data(), batch_->pixel_bytes(), stream),
                    warm_up_checksum_, "pixels nvJPEG decoded on the device");
    std::vector<std::uint8_t> pixels(batch_->pixel_bytes());
    H2D_CUDA_CHECK(
        cudaMemcpy(pixels.data(), pixels_.data(), pixels.size(), cudaMemcpyDeviceToHost));
    if (pixels.size() != reference.size()) {  // the same tiles: a mismatch is a bug here
      throw std::logic_error(
          fmt::format("h2d/decode: {} bytes decoded by nvJPEG, {} by libjpeg-turbo", pixels.size(),
                      reference.size()));
    }
    level_difference_ = compare_levels(pixels.data(), reference.data(), reference.size()).max;
    return pixels;
  }

  void write_counters(benchmark::State& state, const SampleSeries& /*series*/) const override {
    set_counter(state, "max_level_diff_vs_turbojpeg", level_difference_);
  }

 private:
  GpuJpegDecoder decoder_;  // first: a GPU without nvJPEG skips before anything is allocated
  const DecodeBatch* batch_ = nullptr;
  DeviceBuffer pixels_;
  std::vector<std::uint8_t*> staged_;  // where each image's bytes go in the staging buffer
  std::vector<JpegBytes> jpegs_;       // the same bytes, as nvJPEG reads them
  std::vector<std::byte*> outputs_;
  std::uint64_t warm_up_checksum_ = 0;
  int level_difference_ = 0;
};

}  // namespace

std::unique_ptr<DecodeRoute> make_decode_route(Route route, JpegBackend backend, int device) {
  switch (route) {
    case Route::cpu_float32:
      return std::make_unique<CpuFloat32Route>();
    case Route::cpu_uint8:
      return std::make_unique<CpuUint8Route>();
    case Route::jpeg:
      return std::make_unique<JpegRoute>(device, backend);
  }
  throw std::logic_error("h2d/decode: unknown route");
}

}  // namespace h2d
