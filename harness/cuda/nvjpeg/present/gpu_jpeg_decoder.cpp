// GpuJpegDecoder with nvJPEG: linked where the build found it (harness/CMakeLists.txt).

#include "harness/cuda/nvjpeg/gpu_jpeg_decoder.hpp"

#include <fmt/format.h>
#include <nvjpeg.h>

#include <stdexcept>
#include <string>

#include "harness/core/case_skipped.hpp"
#include "harness/cuda/scoped_device.hpp"

namespace h2d {
namespace {

std::string status_name(nvjpegStatus_t status) {
  switch (status) {
    case NVJPEG_STATUS_SUCCESS:
      return "NVJPEG_STATUS_SUCCESS";
    case NVJPEG_STATUS_NOT_INITIALIZED:
      return "NVJPEG_STATUS_NOT_INITIALIZED";
    case NVJPEG_STATUS_INVALID_PARAMETER:
      return "NVJPEG_STATUS_INVALID_PARAMETER";
    case NVJPEG_STATUS_BAD_JPEG:
      return "NVJPEG_STATUS_BAD_JPEG";
    case NVJPEG_STATUS_JPEG_NOT_SUPPORTED:
      return "NVJPEG_STATUS_JPEG_NOT_SUPPORTED";
    case NVJPEG_STATUS_ALLOCATOR_FAILURE:
      return "NVJPEG_STATUS_ALLOCATOR_FAILURE";
    case NVJPEG_STATUS_EXECUTION_FAILED:
      return "NVJPEG_STATUS_EXECUTION_FAILED";
    case NVJPEG_STATUS_ARCH_MISMATCH:
      return "NVJPEG_STATUS_ARCH_MISMATCH";
    case NVJPEG_STATUS_INTERNAL_ERROR:
      return "NVJPEG_STATUS_INTERNAL_ERROR";
    case NVJPEG_STATUS_IMPLEMENTATION_NOT_SUPPORTED:
      return "NVJPEG_STATUS_IMPLEMENTATION_NOT_SUPPORTED";
    case NVJPEG_STATUS_INCOMPLETE_BITSTREAM:
      return "NVJPEG_STATUS_INCOMPLETE_BITSTREAM";
  }
  return fmt::format("nvjpegStatus_t {}", static_cast<int>(status));
}

void check(nvjpegStatus_t status, const char* call) {
  if (status != NVJPEG_STATUS_SUCCESS) {
    throw std::runtime_error(fmt::format("{} failed: {}", call, status_name(status)));
  }
}

nvjpegBackend_t to_nvjpeg(JpegBackend backend) {
  switch (backend) {
    case JpegBackend::hybrid:
      return NVJPEG_BACKEND_HYBRID;
    case JpegBackend::gpu_hybrid:
      return NVJPEG_BACKEND_GPU_HYBRID;
    case JpegBackend::hardware:
      return NVJPEG_BACKEND_HARDWARE;
  }
  return NVJPEG_BACKEND_DEFAULT;
}

}  // namespace

struct GpuJpegDecoder::State {
  int device = 0;
  nvjpegHandle_t handle = nullptr;
  nvjpegJpegState_t jpeg = nullptr;
  // nvjpegDecodeBatchedInitialize is needed again whenever the batch size or format changes.
  std::size_t batch = 0;
  RgbLayout layout = RgbLayout::interleaved;

  ~State() {
    if (jpeg != nullptr) {
      nvjpegJpegStateDestroy(jpeg);
    }
    if (handle != nullptr) {
      nvjpegDestroy(handle);
    }
  }
};

GpuJpegDecoder::GpuJpegDecoder(int device, JpegBackend backend)
    : backend_(backend), state_(std::make_unique<State>()) {
  ScopedDevice on(device);
  state_->device = device;
  const nvjpegStatus_t created =
      nvjpegCreateEx(to_nvjpeg(backend), nullptr, nullptr, NVJPEG_FLAGS_DEFAULT, &state_->handle);
  // nvjpeg.h does not say which status a GPU without a JPEG engine gets, so any failure to set up
  // the hardware backend is a case that cannot run here, with the status as its reason (the
  // pipelines then fall back to hybrid) rather than a failed case.
  if (backend == JpegBackend::hardware && created != NVJPEG_STATUS_SUCCESS) {
    throw CaseSkipped(fmt::format(
        "nvJPEG's hardware backend is not available on GPU {} (nvjpegCreateEx: {}); A100, H100 "
        "and H200 have a JPEG decode engine",
        device, status_name(created)));
  }
  check(created, "nvjpegCreateEx");
  check(nvjpegJpegStateCreate(state_->handle, &state_->jpeg), "nvjpegJpegStateCreate");
}

GpuJpegDecoder::GpuJpegDecoder(GpuJpegDecoder&& other) noexcept = default;
GpuJpegDecoder& GpuJpegDecoder::operator=(GpuJpegDecoder&& other) noexcept = default;
GpuJpegDecoder::~GpuJpegDecoder() = default;

void GpuJpegDecoder::decode(const std::vector<JpegBytes>& images,
                            const std::vector<std::byte*>& outputs, RgbLayout layout,
                            cudaStream_t stream) {
  if (images.empty() || images.size() != outputs.size()) {
    throw std::invalid_argument(fmt::format(
        "GpuJpegDecoder::decode: {} images and {} outputs (a non-empty batch needs one each)",
        images.size(), outputs.size()));
  }
  if (!state_) {
    throw std::logic_error("GpuJpegDecoder::decode on a moved-from decoder");
  }
  ScopedDevice on(state_->device);
  const nvjpegOutputFormat_t format =
      layout == RgbLayout::interleaved ? NVJPEG_OUTPUT_RGBI : NVJPEG_OUTPUT_RGB;
  if (state_->batch != images.size() || state_->layout != layout) {
    check(nvjpegDecodeBatchedInitialize(state_->handle, state_->jpeg,
                                        static_cast<int>(images.size()), 1, format),
          "nvjpegDecodeBatchedInitialize");
    state_->batch = images.size();
    state_->layout = layout;
  }
  std::vector<const unsigned char*> data;
  std::vector<std::size_t> lengths;
  std::vector<nvjpegImage_t> destinations(images.size());
  for (std::size_t i = 0; i < images.size(); ++i) {
    data.push_back(images[i].data);
    lengths.push_back(images[i].size);
    auto* out = reinterpret_cast<unsigned char*>(outputs[i]);
    const std::size_t plane = images[i].width * images[i].height;
    nvjpegImage_t& to = destinations[i];
    if (layout == RgbLayout::interleaved) {
      to.channel[0] = out;
      to.pitch[0] = images[i].width * 3;
    } else {
      for (std::size_t c = 0; c < 3; ++c) {
        to.channel[c] = out + c * plane;
        to.pitch[c] = images[i].width;
      }
    }
  }
  const nvjpegStatus_t status = nvjpegDecodeBatched(state_->handle, state_->jpeg, data.data(),
                                                    lengths.data(), destinations.data(), stream);
  if (status != NVJPEG_STATUS_SUCCESS) {
    state_->batch = 0;  // "also use to reset failed batches": initialize again next time
    if (status == NVJPEG_STATUS_JPEG_NOT_SUPPORTED) {
      // Valid JPEGs this backend does not take (the JPEG engine decodes baseline JPEG only: a
      // user's progressive photos): a case that cannot run here, not a failure.
      throw CaseSkipped(fmt::format(
          "nvJPEG's {} backend cannot decode an image of this batch (nvjpegDecodeBatched: "
          "NVJPEG_STATUS_JPEG_NOT_SUPPORTED){}",
          to_string(backend_),
          backend_ == JpegBackend::hardware ? "; the JPEG engine decodes baseline JPEGs only"
                                            : ""));
    }
    check(status, "nvjpegDecodeBatched");
  }
}

}  // namespace h2d
