#include "harness/strategy/tuned_ring.hpp"

#include "harness/measure/counters.hpp"
#include "harness/trace/nvtx.hpp"

namespace h2d {

TunedRing::TunedRing(int device, std::size_t bytes, std::size_t cores,
                     const RingCalibration& calibration)
    : calibration_(calibration),
      space_(calibration_space(bytes, cores, calibration)),
      ring_(device, ring_search_start(space_),
            RingCapacity{ring_space_pinned_bytes(space_), space_.depths.back()}) {}

const RingTuning& TunedRing::calibrate(void* destination, const std::byte* source) {
  NvtxRange range(NvtxCategory::setup, "calibrate ring", space_.bytes);
  tuning_ = calibrate_ring(
      space_, calibration_, [&](const RingShape& shape) { ring_.reshape(shape); },
      [&] { ring_.copy(destination, source, space_.bytes); });
  return tuning_;
}

void write_tuning_counters(const RingTuning& tuning, benchmark::State& state) {
  set_counter(state, "threads", static_cast<double>(tuning.best.threads));
  set_counter(state, "chunk_bytes", static_cast<double>(tuning.best.chunk_bytes));
  set_counter(state, "depth", static_cast<double>(tuning.best.depth));
  set_counter(state, "calibration_ms", tuning.seconds * 1e3);
  set_counter(state, "calibration_trials", static_cast<double>(tuning.trials.size()));
}

}  // namespace h2d
