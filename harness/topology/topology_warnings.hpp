#pragma once

#include "harness/topology/topology.hpp"

namespace h2d {

// Once the tree, the GPUs and their uplink groups are built: warnings for links below what both
// ends support (the GPUs' own and the shared switch uplinks'), and notes on links known only from
// hwloc's rate and on where the GPUs sit across NUMA nodes.
void add_warnings_and_notes(Topology& topology);

}  // namespace h2d
