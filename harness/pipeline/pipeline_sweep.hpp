#pragma once

#include <map>
#include <string>
#include <vector>

#include "harness/core/case_name.hpp"

#include "harness/core/preset.hpp"
#include "harness/core/sample_spec.hpp"
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
//
// With a `sample` other than the tile, every configuration carries it (config.sample) and the
// decode cases are left out (they decode the tile's JPEGs); quick's train loop then also holds
// worker processes handing a batch over packed (members=packed), what a many-member batch asks.
std::vector<PipelineConfig> pipeline_sweep(Preset preset, LoopKind loop, bool host_only,
                                           const SampleSpec& sample = SampleSpec{});

// family/workers=4/prefetch=2/pin=pinned_ring/copy=async/batch=32/compute_us=1000/sample_us=100
// (with loop=train first when `with_loop`, for host/pipeline, which holds both loops; then
// sample=NAME where the configuration carries a sample).
std::string pipeline_case_name(const std::string& family, const PipelineConfig& config,
                               bool with_loop);
// The same keys added to `name` (a declared family's name, so each key is checked).
CaseName& add_pipeline_keys(CaseName& name, const PipelineConfig& config, bool with_loop);
// The numeric parameters, written as counters (segments_per_batch for worker=process shm=fresh:
// a member a segment, and the ids, or 1 packed).
std::map<std::string, double> pipeline_params(const PipelineConfig& config);

}  // namespace h2d
