#pragma once

#include <string>
#include <string_view>

namespace h2d {

// What limits a data-loader loop, the answer the user of h2dbench needs: more workers (cpu),
// a faster link or smaller batches on the wire (bus), or nothing on the loading side (gpu step).
// Written to reports as the counter `bound_by` with these codes.
enum class BoundBy { cpu_workers = 0, bus = 1, gpu_step = 2 };
std::string_view to_string(BoundBy bound);

// Fractions (0..1) of the measured window each stage was busy. A pipeline runs as fast as its
// busiest stage allows, so at steady state that stage is near 1 and the others are lower.
struct StageUtilization {
  double workers = 0;  // producing batches, averaged over the workers
  double pin = 0;      // the pin thread copying into pinned memory (0 without one)
  double bus = 0;      // host-to-device copies in flight
  double step = 0;     // the step (compute) running
  bool sync_copies = false;
};

struct PipelineVerdict {
  BoundBy bound_by = BoundBy::gpu_step;
  std::string reason;  // one line for the case's label
};

// The busiest stage decides; the reason gives every stage's share, and says when synchronous
// copies make bus and step take turns, or when no stage is saturated (the loop is latency-bound).
PipelineVerdict judge_pipeline(const StageUtilization& load);

}  // namespace h2d
