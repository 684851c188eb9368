#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace h2d {

// nvJPEG's decode backends (nvjpegBackend_t): `hybrid` Huffman-decodes on the CPU and does the
// IDCT and colour conversion on the GPU (what DALI's "mixed" decoder does for small images);
// `gpu_hybrid` Huffman-decodes on the GPU too, but (nvjpeg.h) only in batches of more than 50
// baseline, interleaved images: smaller batches decode as `hybrid`; `hardware` is the JPEG engine
// of A100, H100 and H200 (and a few others), absent elsewhere.
enum class JpegBackend { hybrid, gpu_hybrid, hardware };

constexpr std::string_view to_string(JpegBackend backend) {
  switch (backend) {
    case JpegBackend::hybrid:
      return "hybrid";
    case JpegBackend::gpu_hybrid:
      return "gpu_hybrid";
    case JpegBackend::hardware:
      return "hardware";
  }
  return "?";
}

// What the decoded pixels look like on the device: `interleaved` is H×W×3 RGB (NVJPEG_OUTPUT_RGBI,
// what libjpeg-turbo writes and kernels::launch_normalize reads), `planar` is three H×W planes,
// R then G then B (NVJPEG_OUTPUT_RGB, the C×H×W order a model takes).
enum class RgbLayout { interleaved, planar };

// One compressed image in host memory (page-locked memory lets nvJPEG copy it asynchronously).
struct JpegBytes {
  const std::uint8_t* data = nullptr;
  std::size_t size = 0;
  std::size_t width = 0;  // as its header says: the row pitch of the output is width * 3 (or width)
  std::size_t height = 0;
};

// Batched JPEG decode on one GPU with nvJPEG: an nvjpegHandle_t with its backend and an
// nvjpegJpegState_t, destroyed with their owner. Move-only; one per thread (nvJPEG states are not
// thread-safe).
//
// Which implementation a binary has is decided when it is linked (harness/CMakeLists.txt): with
// nvJPEG (the toolkit's or the nvidia-nvjpeg wheel's), or without it (a build that found none, and
// the simulated GPU), where the constructor throws CaseSkipped with the reason, so the cases that
// need it are reported as skipped and the run goes on.
class GpuJpegDecoder {
 public:
  // Throws CaseSkipped when this build has no nvJPEG or the hardware backend cannot be set up on
  // this GPU (no JPEG engine), std::runtime_error naming the nvJPEG call on other failures.
  GpuJpegDecoder(int device, JpegBackend backend);
  GpuJpegDecoder(GpuJpegDecoder&& other) noexcept;
  GpuJpegDecoder& operator=(GpuJpegDecoder&& other) noexcept;
  GpuJpegDecoder(const GpuJpegDecoder&) = delete;
  GpuJpegDecoder& operator=(const GpuJpegDecoder&) = delete;
  ~GpuJpegDecoder();

  // Enqueues the decode of images[i] into outputs[i] on `stream` (device memory of
  // width * height * 3 bytes each, in `layout`): one nvjpegDecodeBatched call. The host returns
  // once the work is enqueued; for the hybrid backends that includes the Huffman decode on the CPU.
  // Throws std::invalid_argument when the lists differ in length or are empty, CaseSkipped when
  // the backend cannot decode one of the images (nvJPEG answers NVJPEG_STATUS_JPEG_NOT_SUPPORTED:
  // the hardware backend decodes baseline JPEG only), std::logic_error on a moved-from decoder.
  void decode(const std::vector<JpegBytes>& images, const std::vector<std::byte*>& outputs,
              RgbLayout layout, cudaStream_t stream);

  JpegBackend backend() const { return backend_; }

 private:
  struct State;
  JpegBackend backend_;
  std::unique_ptr<State> state_;
};

}  // namespace h2d
