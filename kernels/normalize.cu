#include "kernels/launch.cuh"
#include "kernels/launch_status.cuh"
#include "kernels/normalize.cuh"

namespace h2d::kernels {
namespace {

constexpr int kThreads = 256;

// One thread per pixel: it reads the pixel's C bytes and writes one float into each channel
// plane, so neighbouring threads write neighbouring floats.
__global__ void normalize_kernel(const unsigned char* hwc, float* chw, std::size_t pixels,
                                 std::size_t plane, NormalizeParams params) {
  const std::size_t channels = static_cast<std::size_t>(params.channels);
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < pixels;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const std::size_t sample = i / plane;
    const std::size_t pixel = i - sample * plane;
    const unsigned char* in = hwc + i * channels;
    float* out = chw + sample * channels * plane + pixel;
    for (std::size_t c = 0; c < channels; ++c) {
      out[c * plane] = normalize_value(in[c], params.scale[c], params.bias[c]);
    }
  }
}

}  // namespace

cudaError_t launch_normalize(const unsigned char* hwc, float* chw, std::size_t samples,
                             std::size_t height, std::size_t width, const NormalizeParams& params,
                             cudaStream_t stream) {
  const std::size_t plane = height * width;
  const std::size_t pixels = samples * plane;
  if (pixels == 0 || params.channels <= 0 || params.channels > kMaxNormalizeChannels) {
    return cudaErrorInvalidValue;
  }
  const std::size_t wanted = (pixels + kThreads - 1) / kThreads;
  const unsigned blocks = static_cast<unsigned>(wanted < 8192 ? wanted : 8192);
  H2D_LAUNCH(normalize_kernel, blocks, kThreads, 0, stream)(hwc, chw, pixels, plane, params);
  return launch_status();
}

}  // namespace h2d::kernels
