#pragma once

#include <map>
#include <string>
#include <vector>

#include "harness/core/case_name.hpp"

#include "harness/core/preset.hpp"
#include "harness/pipeline/pipeline_config.hpp"

namespace h2d {

// The tile of decode=cpu cases: the generated image set's smaller size (images of another size are
// centre-cropped or padded to it).
inline constexpr std::size_t kDecodeTile = 256;

// The pipeline configurations a preset measures, for the GPU families (pipeline/train,
// pipeline/predict) or the host stand-in (host/pipeline, smaller tiles and steps). quick: a
// handful (the pin modes and copy modes around one baseline); default: one axis at a time around
// the baseline (workers, prefetch, pin x copy, batch size, compute time, per-sample cost); full:
// denser axes. Every preset adds decode cases (decode=cpu by workers; decode=gpu on the GPU
// families; quick predict only one decode=cpu case); their images are filled in when the case
// runs.
std::vector<PipelineConfig> pipeline_sweep(Preset preset, LoopKind loop, bool host_only);

// family/workers=4/prefetch=2/pin=pinned_ring/copy=async/batch=32/compute_us=1000/sample_us=100
// (with loop=train first when `with_loop`, for host/pipeline, which holds both loops).
std::string pipeline_case_name(const std::string& family, const PipelineConfig& config,
                               bool with_loop);
// The same keys added to `name` (a declared family's name, so each key is checked).
CaseName& add_pipeline_keys(CaseName& name, const PipelineConfig& config, bool with_loop);
// The numeric parameters, written as counters.
std::map<std::string, double> pipeline_params(const PipelineConfig& config);

}  // namespace h2d
