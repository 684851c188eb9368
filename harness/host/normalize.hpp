#pragma once

// The CPU side of preprocessing: uint8 H×W×C pixels (a decoded image) normalized per channel into
// float32 C×H×W (the tensor a model takes), the reference it is checked against, and the error a
// float32 computation of it may have.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "harness/core/sample_shape.hpp"
#include "harness/host/normalize_params.hpp"
#include "harness/host/thread_team.hpp"

namespace h2d {

// Mean and standard deviation per channel, on the 0..1 scale.
struct ChannelStats {
  std::vector<double> mean;
  std::vector<double> stdev;
};

// ImageNet's statistics, which robosat and most segmentation models use.
ChannelStats imagenet_stats();

// Throws std::invalid_argument unless mean and stdev have 1..kMaxNormalizeChannels entries each,
// equally many, and every stdev is positive and finite.
NormalizeParams make_normalize_params(const ChannelStats& stats);

// Normalizes rows [row_begin, row_end) of one sample: `hwc` holds H×W×C uint8, `chw` receives
// C×H×W float32. params.channels must equal shape.channels.
void normalize_rows(const std::uint8_t* hwc, float* chw, const SampleShape& shape,
                    const NormalizeParams& params, std::size_t row_begin, std::size_t row_end);

// Normalizes `samples` consecutive samples, the rows split over the team's threads.
void normalize_batch(ThreadTeam& team, const std::uint8_t* hwc, float* chw, std::size_t samples,
                     const SampleShape& shape, const NormalizeParams& params);

// The exact value, in double: (x / 255 - mean) / stdev.
double reference_normalize(std::uint8_t x, double mean, double stdev);

// How far a float32 evaluation of normalize_value may be from the reference. Four roundings (of
// scale, of bias, of the product and of the sum; a fused multiply-add has fewer) each cost at most
// half an ulp of the largest magnitude involved, max(255 |scale|, |bias|), which also bounds the
// result: 2 ulps in all. The bound allows 4, still far below one input step (1 / (255 stdev)).
double normalize_error_bound(const NormalizeParams& params);

// The largest |chw - reference| over `samples` samples normalized from `hwc`.
double max_abs_error(const float* chw, const std::uint8_t* hwc, std::size_t samples,
                     const SampleShape& shape, const ChannelStats& stats);

}  // namespace h2d
