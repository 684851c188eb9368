// GpuJpegDecoder without nvJPEG: linked where the build has none (a toolkit without it and no
// nvidia-nvjpeg wheel, or the simulated GPU). Every case that would decode on the GPU is skipped
// with the reason CMake gave (H2D_NVJPEG_ABSENT_REASON, in a header it generates).

#include "harness/cuda/nvjpeg/gpu_jpeg_decoder.hpp"

#include "harness/core/case_skipped.hpp"
#include "nvjpeg_absent_reason.hpp"

namespace h2d {

struct GpuJpegDecoder::State {};

GpuJpegDecoder::GpuJpegDecoder(int /*device*/, JpegBackend backend) : backend_(backend) {
  throw CaseSkipped(H2D_NVJPEG_ABSENT_REASON);
}

GpuJpegDecoder::GpuJpegDecoder(GpuJpegDecoder&& other) noexcept = default;
GpuJpegDecoder& GpuJpegDecoder::operator=(GpuJpegDecoder&& other) noexcept = default;
GpuJpegDecoder::~GpuJpegDecoder() = default;

void GpuJpegDecoder::decode(const std::vector<JpegBytes>& /*images*/,
                            const std::vector<std::byte*>& /*outputs*/, RgbLayout /*layout*/,
                            cudaStream_t /*stream*/) {
  throw CaseSkipped(H2D_NVJPEG_ABSENT_REASON);
}

}  // namespace h2d
