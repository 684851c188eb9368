#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "harness/host/ring_tuner.hpp"

namespace h2d {
namespace {

constexpr std::size_t KiB = std::size_t{1} << 10;
constexpr std::size_t MiB = std::size_t{1} << 20;

TEST(RingSearchSpace, ThreadsUpToTheCoresChunksThatSplitTheTransferDepthsItFills) {
  const RingSearchSpace big = ring_search_space(256 * MiB, 12);
  EXPECT_EQ(big.threads, (std::vector<std::size_t>{1, 2, 4, 8, 12}));
  EXPECT_EQ(big.chunks, (std::vector<std::size_t>{1 * MiB, 2 * MiB, 4 * MiB, 8 * MiB, 16 * MiB}));
  EXPECT_EQ(big.depths, (std::vector<std::size_t>{2, 3, 4, 6, 8}));
  EXPECT_EQ(ring_space_pinned_bytes(big), 16 * MiB * 8);

  const RingSearchSpace small = ring_search_space(4 * MiB, 1);
  EXPECT_EQ(small.threads, (std::vector<std::size_t>{1}));
  EXPECT_EQ(small.chunks, (std::vector<std::size_t>{1 * MiB, 2 * MiB}));
  EXPECT_EQ(small.depths, (std::vector<std::size_t>{2, 3, 4}));  // 1 MiB chunks: 4 of them

  const RingSearchSpace tiny = ring_search_space(1 * MiB + 5, 16);
  EXPECT_EQ(tiny.chunks, (std::vector<std::size_t>{512 * KiB}));
  EXPECT_EQ(tiny.depths, (std::vector<std::size_t>{2, 3}));
  EXPECT_EQ(ring_search_space(4 * KiB, 2).chunks, (std::vector<std::size_t>{4 * KiB}));
  EXPECT_THROW(ring_search_space(0, 4), std::invalid_argument);
}

TEST(RingSearchSpace, TheSearchStartsMidSpace) {
  const RingShape start = ring_search_start(ring_search_space(256 * MiB, 32));
  EXPECT_EQ(start, (RingShape{4 * MiB, 2, 4}));
  EXPECT_EQ(ring_search_start(ring_search_space(4 * MiB, 2)), (RingShape{2 * MiB, 2, 2}));
}

// A machine whose rate peaks at one shape: each axis away from the peak costs a tenth a step.
struct PeakedMachine {
  RingShape peak;
  int calls = 0;

  static double steps(std::size_t a, std::size_t b) {
    return std::abs(std::log2(static_cast<double>(a)) - std::log2(static_cast<double>(b)));
  }
  RingTrial operator()(const RingShape& shape) {
    ++calls;
    const double rate = 50 * std::pow(0.9, steps(shape.threads, peak.threads) +
                                               steps(shape.chunk_bytes, peak.chunk_bytes) +
                                               steps(shape.depth, peak.depth));
    return {shape, rate, 0.05};
  }
};

TEST(TuneRing, FindsThePeakWithoutTryingEveryShape) {
  const RingSearchSpace space = ring_search_space(1024 * MiB, 16);
  PeakedMachine machine{{16 * MiB, 6, 8}};
  const RingTuning tuning = tune_ring(space, 10.0, std::ref(machine));
  EXPECT_EQ(tuning.best, machine.peak);
  EXPECT_DOUBLE_EQ(tuning.best_gb_per_s, 50);
  EXPECT_FALSE(tuning.budget_ran_out);
  const std::size_t every_shape = space.threads.size() * space.chunks.size() * space.depths.size();
  EXPECT_LT(tuning.trials.size(), every_shape / 4) << "a search, not a sweep";
  EXPECT_EQ(static_cast<std::size_t>(machine.calls), tuning.trials.size()) << "each shape once";
  for (std::size_t i = 0; i < tuning.trials.size(); ++i) {
    for (std::size_t j = i + 1; j < tuning.trials.size(); ++j) {
      EXPECT_NE(tuning.trials[i].shape, tuning.trials[j].shape);
    }
  }
  EXPECT_DOUBLE_EQ(tuning.seconds, 0.05 * static_cast<double>(tuning.trials.size()));
  EXPECT_EQ(tuning.trials.front().shape, ring_search_start(space));
}

TEST(TuneRing, StopsBeforeABudgetItWouldPassAndKeepsTheBestSoFar) {
  const RingSearchSpace space = ring_search_space(1024 * MiB, 16);
  PeakedMachine machine{{16 * MiB, 8, 16}};
  const RingTuning tuning = tune_ring(space, 0.22, std::ref(machine));
  EXPECT_TRUE(tuning.budget_ran_out);
  EXPECT_EQ(tuning.trials.size(), 4u);  // 4 x 0.05 s fit in 0.22 s; a fifth would not
  EXPECT_LE(tuning.seconds, 0.22);
  // The threads axis is walked first (1, 2, then 8 beside the start's 4; 16 would pass the
  // budget): the best value tried is kept.
  EXPECT_EQ(tuning.best, (RingShape{4 * MiB, 2, 8}));
  // A budget smaller than one trial still measures the start.
  const RingTuning none = tune_ring(space, 0, std::ref(machine));
  EXPECT_EQ(none.trials.size(), 1u);
  EXPECT_EQ(none.best, ring_search_start(space));
  EXPECT_TRUE(none.budget_ran_out);
}

TEST(TuneRing, StaysPutWhenNothingIsClearlyFaster) {
  // Every shape within 1% of the start: noise, not a reason to move.
  const RingSearchSpace space = ring_search_space(256 * MiB, 8);
  const RingShape start = ring_search_start(space);
  const RingTuning tuning = tune_ring(space, 10.0, [&](const RingShape& shape) {
    return RingTrial{shape, shape == start ? 10.0 : 10.09, 0.01};
  });
  EXPECT_EQ(tuning.best, start);
  EXPECT_THROW(tune_ring(RingSearchSpace{}, 1.0, [](const RingShape& s) { return RingTrial{s}; }),
               std::invalid_argument);
}

TEST(CalibrateRing, TimesPassesOfEachShapeAndLeavesTheRingInTheBest) {
  RingCalibration calibration;
  calibration.budget_seconds = 5;
  calibration.passes_per_trial = 2;
  EXPECT_EQ(calibration_space(1024 * MiB, 4, calibration).bytes, 256 * MiB) << "capped";
  EXPECT_EQ(calibration_space(8 * MiB, 4, calibration).bytes, 8 * MiB);
  const RingSearchSpace space = ring_search_space(8 * MiB, 2);
  RingShape current;
  int passes = 0;
  std::vector<RingShape> reshaped;
  const RingTuning tuning = calibrate_ring(
      space, calibration,
      [&](const RingShape& shape) {
        current = shape;
        reshaped.push_back(shape);
      },
      [&] { ++passes; });
  EXPECT_EQ(passes, 2 * static_cast<int>(tuning.trials.size()));
  EXPECT_EQ(reshaped.size(), tuning.trials.size() + 1);
  EXPECT_EQ(current, tuning.best) << "the ring is left in the shape chosen";
}

TEST(TimePasses, MedianPassRateAndTheTimeOfAllPasses) {
  int passes = 0;
  const RingTrial trial = time_passes({MiB, 2, 1}, 64 * MiB, 3, [&] { ++passes; });
  EXPECT_EQ(passes, 3);
  EXPECT_GT(trial.gb_per_s, 0);
  EXPECT_GE(trial.seconds, 0);
  EXPECT_EQ(trial.shape, (RingShape{MiB, 2, 1}));
  time_passes({MiB, 2, 1}, 1, 0, [&] { ++passes; });
  EXPECT_EQ(passes, 4) << "at least one pass";
}

}  // namespace
}  // namespace h2d
