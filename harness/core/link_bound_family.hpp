#pragma once

#include <string>

namespace h2d {

// Whether a family's GB/s is traffic over a GPU's PCIe link, so that "% of link" means something:
// h2d/* and multi/*, except h2d/pin_cost, whose GB_per_s is page-locking throughput (bytes pinned
// per second, no DMA at all) and can pass the link's ceiling.
bool is_link_bound_family(const std::string& family);

}  // namespace h2d
