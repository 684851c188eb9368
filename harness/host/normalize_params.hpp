#pragma once

// Per-channel normalization of uint8 pixels into float32, written once for host and device so the
// CPU path, the GPU kernel and the reference check agree on the formula. Pure: no CUDA calls.

#include "harness/core/pattern.hpp"  // H2D_HOST_DEVICE

namespace h2d {

inline constexpr int kMaxNormalizeChannels = 8;

// out = x * scale[c] + bias[c], i.e. (x / 255 - mean[c]) / std[c] with scale = 1 / (255 std) and
// bias = -mean / std folded in (torchvision's ToTensor followed by Normalize). Passed to kernels by
// value.
struct NormalizeParams {
  int channels = 0;
  float scale[kMaxNormalizeChannels] = {};
  float bias[kMaxNormalizeChannels] = {};
};

H2D_HOST_DEVICE inline float normalize_value(unsigned char x, float scale, float bias) {
  return static_cast<float>(x) * scale + bias;
}

}  // namespace h2d
