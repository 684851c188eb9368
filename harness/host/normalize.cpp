#include "harness/host/normalize.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <stdexcept>

namespace h2d {

ChannelStats imagenet_stats() {
  return {{0.485, 0.456, 0.406}, {0.229, 0.224, 0.225}};
}

NormalizeParams make_normalize_params(const ChannelStats& stats) {
  const std::size_t channels = stats.mean.size();
  if (channels == 0 || channels > static_cast<std::size_t>(kMaxNormalizeChannels) ||
      stats.stdev.size() != channels) {
    throw std::invalid_argument(fmt::format(
        "normalization needs 1 to {} channels with one mean and one stdev each (got {} and {})",
        kMaxNormalizeChannels, stats.mean.size(), stats.stdev.size()));
  }
  NormalizeParams params;
  params.channels = static_cast<int>(channels);
  for (std::size_t c = 0; c < channels; ++c) {
    const double stdev = stats.stdev[c];
    if (!(stdev > 0) || !std::isfinite(stdev)) {
      throw std::invalid_argument(
          fmt::format("channel {}: the standard deviation must be positive, not {}", c, stdev));
    }
    params.scale[c] = static_cast<float>(1.0 / (255.0 * stdev));
    params.bias[c] = static_cast<float>(-stats.mean[c] / stdev);
  }
  return params;
}

void normalize_rows(const std::uint8_t* hwc, float* chw, const SampleShape& shape,
                    const NormalizeParams& params, std::size_t row_begin, std::size_t row_end) {
  if (static_cast<std::size_t>(params.channels) != shape.channels) {
    throw std::invalid_argument(fmt::format("normalization for {} channels given a {} sample",
                                            params.channels, to_string(shape)));
  }
  const std::size_t channels = shape.channels;
  const std::size_t plane = shape.pixels();
  // One channel at a time: the writes stream through one plane, the reads stride by C.
  for (std::size_t c = 0; c < channels; ++c) {
    const float scale = params.scale[c];
    const float bias = params.bias[c];
    for (std::size_t row = row_begin; row < row_end; ++row) {
      const std::uint8_t* in = hwc + row * shape.width * channels + c;
      float* out = chw + c * plane + row * shape.width;
      for (std::size_t x = 0; x < shape.width; ++x) {
        out[x] = normalize_value(in[x * channels], scale, bias);
      }
    }
  }
}

void normalize_batch(ThreadTeam& team, const std::uint8_t* hwc, float* chw, std::size_t samples,
                     const SampleShape& shape, const NormalizeParams& params) {
  const std::size_t rows = samples * shape.height;
  team.run([&](std::size_t index) {
    auto [begin, end] = split_range(rows, team.size(), index);
    // Rows [begin, end) of the whole batch, one sample's share at a time.
    while (begin < end) {
      const std::size_t sample = begin / shape.height;
      const std::size_t row = begin % shape.height;
      const std::size_t last = std::min(end - sample * shape.height, shape.height);
      normalize_rows(hwc + sample * shape.values(), chw + sample * shape.values(), shape, params,
                     row, last);
      begin = sample * shape.height + last;
    }
  });
}

double reference_normalize(std::uint8_t x, double mean, double stdev) {
  return (static_cast<double>(x) / 255.0 - mean) / stdev;
}

double normalize_error_bound(const NormalizeParams& params) {
  double largest = 0;
  for (int c = 0; c < params.channels; ++c) {
    const double product = 255.0 * std::fabs(static_cast<double>(params.scale[c]));
    const double bias = std::fabs(static_cast<double>(params.bias[c]));
    largest = std::max({largest, product, bias});
  }
  return 4 * static_cast<double>(FLT_EPSILON) * largest;
}

double max_abs_error(const float* chw, const std::uint8_t* hwc, std::size_t samples,
                     const SampleShape& shape, const ChannelStats& stats) {
  if (stats.mean.size() != shape.channels || stats.stdev.size() != shape.channels) {
    throw std::invalid_argument(fmt::format("statistics for {} channels given a {} sample",
                                            stats.mean.size(), to_string(shape)));
  }
  // 256 possible inputs per channel: look the reference up instead of recomputing it.
  std::vector<double> reference(shape.channels * 256);
  for (std::size_t c = 0; c < shape.channels; ++c) {
    for (int x = 0; x < 256; ++x) {
      reference[c * 256 + static_cast<std::size_t>(x)] =
          reference_normalize(static_cast<std::uint8_t>(x), stats.mean[c], stats.stdev[c]);
    }
  }
  double worst = 0;
  for (std::size_t sample = 0; sample < samples; ++sample) {
    const std::uint8_t* in = hwc + sample * shape.values();
    const float* out = chw + sample * shape.values();
    for (std::size_t c = 0; c < shape.channels; ++c) {
      for (std::size_t pixel = 0; pixel < shape.pixels(); ++pixel) {
        const double expected = reference[c * 256 + in[pixel * shape.channels + c]];
        const double error =
            std::fabs(static_cast<double>(out[c * shape.pixels() + pixel]) - expected);
        // NaN compares false: count it as an infinite error so it cannot pass.
        worst = error <= worst ? worst : (std::isnan(error) ? INFINITY : error);
      }
    }
  }
  return worst;
}

}  // namespace h2d
