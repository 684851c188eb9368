#pragma once

#include <chrono>
#include <cstddef>
#include <string>

#include "harness/pipeline/pipeline.hpp"
#include "harness/pipeline/pipeline_config.hpp"

namespace h2d::testing {

// A pipeline small enough for a test: 3 workers, prefetch 2, 40 batches (2 warm-up), every batch
// verified, no CPU work per sample, a 20 s watchdog. Tiles and batches are sized by the caller.
inline PipelineConfig test_pipeline_config(PinMode pin, CopyMode copy, LoopKind loop,
                                           std::size_t batch_size, std::size_t tile,
                                           double compute_us) {
  PipelineConfig config;
  config.loop = loop;
  config.workers = 3;
  config.prefetch = 2;
  config.pin = pin;
  config.copy = copy;
  config.batch_size = batch_size;
  config.tile = tile;
  config.sample_us = 0;
  config.compute_us = compute_us;
  config.batches = 40;
  config.warmup = 2;
  config.verify_every = 1;
  config.watchdog = std::chrono::duration<double>(20);
  return config;
}

// How an epoch ended, for assertion messages.
inline std::string describe_result(const EpochResult& result) {
  return std::string(to_string(result.end)) + ": " + result.message + " | " + result.first_failure;
}

}  // namespace h2d::testing
