#pragma once

#include <benchmark/benchmark.h>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "harness/core/case_name.hpp"
#include "harness/core/device_info.hpp"
#include "harness/core/preset.hpp"
#include "harness/core/sample_spec.hpp"
#include "harness/decode/run_images.hpp"
#include "harness/measure/case_context.hpp"

namespace h2d {

// What a family needs to decide its cases: the preset and the GPUs it may use.
struct RunPlan {
  Preset preset = Preset::standard;
  std::vector<DeviceInfo> devices;  // selected with --devices; empty when no GPU is usable
  std::string no_gpu_reason;        // why `devices` is empty
  // --images or the generated tiles: which tile groups the decode families have.
  std::shared_ptr<const RunImages> images = std::make_shared<const RunImages>();
  // --sample: what one sample of the batch families' batches carries (the tile by default).
  SampleSpec sample = named_samples().front();
};

// One benchmark case, ready to hand to Google Benchmark.
struct BenchmarkCase {
  std::string name;                       // family/key=value/... (see CaseName)
  std::optional<CaseName> declared_name;  // the same, key by key with the family's declaration:
                                          // the report's `axes` (absent: a skipped case's name)
  std::map<std::string, double> params;   // numeric parameters, also written as counters
  // Registered with one iteration: the body measures in a MeasurementLoop (harness/measure).
  std::function<void(benchmark::State&, const CaseContext&)> body;
  bool needs_gpu = false;  // from its family (select_cases): skipped after a sticky CUDA error
  // How many loops it measures under the run's stopping rule: its own and those of the yardsticks
  // it measures beside it (h2d/staging's pinned reference, h2d/streams' serial phases). Each may
  // take the rule's cap, so the bound the run prints counts each.
  std::size_t timed_loops = 1;
};

// What a family does with the run's --sample.
enum class SampleUse {
  none,   // moves no samples (h2d/memory, h2d/staging, ...): runs whatever the sample
  taken,  // builds its batches from it (h2d/batch, host/collate, the loader loops)
  image,  // takes its image member (image_member): skipped, with that reason, where none
};

// A family of cases (h2d/memory, host/memcpy, ...): one per file in benchmarks/.
struct Family {
  std::string name;
  std::string description;  // one line for `h2dbench list`
  bool needs_gpu = false;
  std::function<std::vector<BenchmarkCase>(const RunPlan&)> cases;
  SampleUse sample = SampleUse::none;
};

// Families register themselves at static-initialization time from benchmarks/*.cpp:
//   const bool registered = h2d::register_family({...});
bool register_family(Family family);
// Sorted by name, so listings and reports are stable.
std::vector<Family> registered_families();

}  // namespace h2d
