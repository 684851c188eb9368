// The CPU normalization, its double-precision reference and the float32 error bound.

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "harness/core/checksum.hpp"
#include "harness/core/sample_series.hpp"
#include "harness/host/normalize.hpp"

namespace h2d {
namespace {

std::vector<std::uint8_t> random_pixels(std::size_t count, std::uint64_t seed) {
  std::vector<std::uint8_t> pixels(count);
  fill_pattern(pixels.data(), count, seed);
  return pixels;
}

TEST(Normalize, ParamsFoldScaleAndMean) {
  const NormalizeParams params = make_normalize_params(imagenet_stats());
  ASSERT_EQ(params.channels, 3);
  EXPECT_FLOAT_EQ(params.scale[0], static_cast<float>(1.0 / (255.0 * 0.229)));
  EXPECT_FLOAT_EQ(params.bias[2], static_cast<float>(-0.406 / 0.225));
}

TEST(Normalize, ParamsRejectBadStatistics) {
  EXPECT_THROW(make_normalize_params({{0.5, 0.5}, {0.2}}), std::invalid_argument);
  EXPECT_THROW(make_normalize_params({{}, {}}), std::invalid_argument);
  EXPECT_THROW(make_normalize_params({{0.5}, {0.0}}), std::invalid_argument);
  EXPECT_THROW(make_normalize_params({{0.5}, {-1.0}}), std::invalid_argument);
  EXPECT_THROW(make_normalize_params({{0.5}, {NAN}}), std::invalid_argument);
  EXPECT_THROW(make_normalize_params({std::vector<double>(9, 0.5), std::vector<double>(9, 0.2)}),
               std::invalid_argument);
}

TEST(Normalize, EveryInputIsWithinTheBoundWithAndWithoutFusedMultiplyAdd) {
  const ChannelStats stats = imagenet_stats();
  const NormalizeParams params = make_normalize_params(stats);
  const double bound = normalize_error_bound(params);
  for (int c = 0; c < 3; ++c) {
    for (int x = 0; x < 256; ++x) {
      const auto pixel = static_cast<std::uint8_t>(x);
      const double reference = reference_normalize(pixel, stats.mean[c], stats.stdev[c]);
      const float plain = normalize_value(pixel, params.scale[c], params.bias[c]);
      const float fused = std::fma(static_cast<float>(x), params.scale[c], params.bias[c]);
      EXPECT_LE(std::fabs(plain - reference), bound) << c << " " << x;
      EXPECT_LE(std::fabs(fused - reference), bound) << c << " " << x;
    }
  }
}

TEST(Normalize, BoundIsFloatRoundingNotAnInputStep) {
  const NormalizeParams params = make_normalize_params(imagenet_stats());
  const double bound = normalize_error_bound(params);
  EXPECT_GT(bound, 0);
  EXPECT_LT(bound, 32 * FLT_EPSILON);              // a few ulps of values below 8
  EXPECT_LT(bound * 1000, 1.0 / (255.0 * 0.229));  // one input step is far outside it
  EXPECT_DOUBLE_EQ(reference_normalize(255, 0.5, 0.25), 2.0);
  EXPECT_DOUBLE_EQ(reference_normalize(0, 0.5, 0.25), -2.0);
}

TEST(Normalize, RowsGoFromInterleavedToPlanes) {
  const SampleShape shape{3, 2, 3};
  const NormalizeParams params = make_normalize_params(imagenet_stats());
  const std::vector<std::uint8_t> hwc = random_pixels(shape.values(), 1);
  std::vector<float> chw(shape.values(), -100.0f);
  normalize_rows(hwc.data(), chw.data(), shape, params, 0, shape.height);
  for (std::size_t y = 0; y < 2; ++y) {
    for (std::size_t x = 0; x < 3; ++x) {
      for (std::size_t c = 0; c < 3; ++c) {
        EXPECT_EQ(chw[c * 6 + y * 3 + x],
                  normalize_value(hwc[(y * 3 + x) * 3 + c], params.scale[c], params.bias[c]));
      }
    }
  }
  // Only the rows asked for are written.
  std::vector<float> partial(shape.values(), -100.0f);
  normalize_rows(hwc.data(), partial.data(), shape, params, 1, 2);
  EXPECT_EQ(partial[0], -100.0f);
  EXPECT_EQ(partial[3], chw[3]);
  EXPECT_THROW(normalize_rows(hwc.data(), chw.data(), SampleShape{4, 2, 3}, params, 0, 1),
               std::invalid_argument);
}

TEST(Normalize, BatchSplitOverThreadsEqualsOneThread) {
  const SampleShape shape{3, 7, 5};  // 7 rows: uneven splits across samples
  const NormalizeParams params = make_normalize_params(imagenet_stats());
  const std::size_t samples = 3;
  const std::vector<std::uint8_t> hwc = random_pixels(samples * shape.values(), 2);
  std::vector<float> expected(samples * shape.values());
  for (std::size_t s = 0; s < samples; ++s) {
    normalize_rows(hwc.data() + s * shape.values(), expected.data() + s * shape.values(), shape,
                   params, 0, shape.height);
  }
  for (std::size_t threads : {1, 2, 4, 5, 32}) {
    ThreadTeam team(threads, "test");
    std::vector<float> chw(samples * shape.values(), NAN);
    normalize_batch(team, hwc.data(), chw.data(), samples, shape, params);
    EXPECT_EQ(std::memcmp(chw.data(), expected.data(), chw.size() * sizeof(float)), 0) << threads;
  }
}

TEST(Normalize, MaxAbsErrorCatchesWrongValues) {
  const SampleShape shape{3, 4, 4};
  const ChannelStats stats = imagenet_stats();
  const NormalizeParams params = make_normalize_params(stats);
  const std::vector<std::uint8_t> hwc = random_pixels(2 * shape.values(), 3);
  std::vector<float> chw(2 * shape.values());
  ThreadTeam team(2, "test");
  normalize_batch(team, hwc.data(), chw.data(), 2, shape, params);
  EXPECT_LE(max_abs_error(chw.data(), hwc.data(), 2, shape, stats), normalize_error_bound(params));

  std::vector<float> off = chw;
  off[shape.values() + 5] += 1e-3f;  // second sample
  EXPECT_NEAR(max_abs_error(off.data(), hwc.data(), 2, shape, stats), 1e-3, 1e-5);
  off[7] = NAN;
  EXPECT_TRUE(std::isinf(max_abs_error(off.data(), hwc.data(), 2, shape, stats)));
  const std::vector<float> zeros(chw.size(), 0.0f);
  EXPECT_GT(max_abs_error(zeros.data(), hwc.data(), 2, shape, stats), 1.0);
  EXPECT_THROW(max_abs_error(chw.data(), hwc.data(), 2, SampleShape{1, 4, 4}, stats),
               std::invalid_argument);
}

TEST(SampleSeries, SummarizesEachNameOnItsOwn) {
  SampleSeries series;
  series.add("a", 3);
  series.add("a", 1);
  series.add("a", 2);
  series.add("b", 10);
  EXPECT_DOUBLE_EQ(series.median("a"), 2);
  EXPECT_DOUBLE_EQ(series.median("b"), 10);
  EXPECT_EQ(series.stats("a").count, 3u);
  EXPECT_THROW(series.median("c"), std::invalid_argument);
}

}  // namespace
}  // namespace h2d
