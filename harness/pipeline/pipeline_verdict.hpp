#pragma once

#include <string>
#include <string_view>

#include "harness/core/loop_bound.hpp"

namespace h2d {

// Fractions (0..1) of the measured window each stage was busy. A pipeline runs as fast as its
// busiest stage allows, so at steady state that stage is near 1 and the others are lower.
struct StageUtilization {
  double workers = 0;  // producing batches, averaged over the workers
  double pin = 0;      // the pin thread copying into pinned memory (0 without one)
  double bus = 0;      // host-to-device copies in flight
  double step = 0;     // the step (compute) running
  bool sync_copies = false;
  bool decoding = false;         // the workers decode JPEGs (decode=cpu): their work is decode
  std::size_t worker_count = 0;  // for how many workers would keep up with the bus
  // decode=gpu: what decodes on the device ("nvJPEG hybrid"). The bus share is then the JPEG
  // bytes' copy and their decode together (nvJPEG copies and decodes in one call), the step share
  // includes the GPU normalize, and the workers only pack bytes.
  std::string gpu_decoder{};
  // worker=process: one thread receives the batches (handoff: receive, map, touch) and with
  // pin=pin_thread pins them as well, as PyTorch's pin thread does
  bool worker_processes = false;
  double handoff = 0;
  bool fresh_segments = false;  // shm=fresh: a new segment mapped per member of each batch
};

struct PipelineVerdict {
  BoundBy bound_by = BoundBy::gpu_step;
  std::string reason;  // one line for the case's label
  // decode=cpu: the workers that would decode as fast as the bus copies, each at its measured
  // rate (W x worker busy / bus busy, rounded up); 0 when the bus was never busy or no decoding.
  std::size_t workers_to_keep_up = 0;
};

// The busiest stage decides; the reason gives every stage's share, and says when synchronous
// copies make bus and step take turns, or when no stage is saturated (the loop is latency-bound).
// With decode=cpu the CPU stage is named "decode in the CPU workers" and the reason says how many
// workers would keep up with the bus. With decode=gpu the bus stage is named as the copy of the
// JPEG bytes plus their decode on the GPU.
PipelineVerdict judge_pipeline(const StageUtilization& load);

}  // namespace h2d
