#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "harness/core/family_axes.hpp"
#include "harness/topology/topology.hpp"

namespace h2d {

// "% of the link" for every bandwidth figure of a report, added after the run from the topology,
// so no family has to know about links.

// The CUDA ordinals a case ran on, from its name: gpu=N, or gpus=0,1,2; otherwise the run's first
// selected device (families name the GPU only when several are selected). Empty when neither.
// Throws std::invalid_argument for a gpu/gpus value that is not a list of ordinals.
std::vector<int> case_gpus(const std::string& run_name, const std::vector<int>& selected_devices);

// The ceiling the GPUs `ordinals` share (all at once, every link on the way counted), or 0 when a
// GPU is not in the topology or its link is unknown.
double ceiling_for_gpus(const Topology& topology, const std::vector<int>& ordinals);

// For each benchmark entry of a link-bound family that ran without error, every bandwidth counter
// <prefix>GB_per_s gets <prefix>link_pct: GB_per_s -> link_pct, d2h_GB_per_s -> d2h_link_pct,
// against the ceiling of the GPUs the case ran on; gpu<N>_GB_per_s -> gpu<N>_link_pct against
// GPU N's own link. A link_pct a family wrote itself stays; "cv" aggregates, which are ratios, get
// none. Returns how many counters were added.
std::size_t annotate_link_pct(nlohmann::json& report, const Topology& topology,
                              const std::vector<int>& selected_devices);

}  // namespace h2d
