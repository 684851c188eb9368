#pragma once

// What the batch planning tests build their batches from: small samples of the tile's shape with
// odd sizes, so alignment padding shows, and the tile's members by position.

#include <cstdint>
#include <string>

#include "harness/batch/batch.hpp"
#include "harness/core/sample_spec.hpp"

namespace h2d::testing {

inline constexpr Member kImage = 0;
inline constexpr Member kMask = 1;
inline constexpr Member kIds = 2;

// The tile's members at C x H x W: image C*H*W float32, mask H*W uint8, ids 3 int64.
inline SampleSpec small_tile(std::size_t c, std::size_t h, std::size_t w) {
  const std::string hw = std::to_string(h) + "x" + std::to_string(w);
  return parse_sample("image:" + std::to_string(c) + "x" + hw + ":float32,mask:" + hw +
                      ":uint8,ids:3:int64");
}

// image 3*5*7*4 = 420 bytes, mask 35, ids 24.
inline const SampleSpec& plan_tile() {
  static const SampleSpec spec = small_tile(3, 5, 7);
  return spec;
}

inline constexpr std::uint64_t kContentsSeed = 1;

inline BatchContents contents_of(std::size_t batch, BatchTask task = BatchTask::train,
                                 const SampleSpec& spec = plan_tile(),
                                 Collate collate = Collate::pad) {
  return batch_contents(spec, sent_members(spec, task), batch, collate, kContentsSeed);
}

inline LayoutPlan plan_of(BatchLayout layout, std::size_t batch, BatchTask task = BatchTask::train,
                          const SampleSpec& spec = plan_tile(), Collate collate = Collate::pad) {
  return plan_layout(layout, contents_of(batch, task, spec, collate));
}

}  // namespace h2d::testing
