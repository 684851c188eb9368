#pragma once

#include <string>
#include <vector>

#include "harness/topology/topology.hpp"

namespace h2d {

// A set of GPUs that receive at the same time, and how it was chosen.
struct GpuSet {
  std::string kind;           // "first": the first k selected; "uplink": one shared uplink's
                              // GPUs; "spread": one GPU per uplink
  std::vector<int> ordinals;  // CUDA ordinals, ascending
};

// The sets multi/h2d_concurrent measures, from the selected CUDA ordinals (in selection order):
// the first k for k = 1..N; the selected GPUs of each shared-uplink group (2 or more); and one GPU
// from each innermost uplink group plus every GPU on no shared uplink, when that makes 2 or more.
// A set already listed is not listed again; the first kind wins.
std::vector<GpuSet> concurrent_gpu_sets(const Topology& topology, const std::vector<int>& selected);

// "0,1,2": the gpus= value of a case name.
std::string ordinal_list(const std::vector<int>& ordinals);

}  // namespace h2d
