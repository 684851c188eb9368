#pragma once

#include <string>
#include <vector>

namespace h2d {

// The physical limit a transfer is measured against: PCIe per-direction ceilings. Pure arithmetic,
// decimal GB/s (1e9 bytes), as PCIe and nvbandwidth count.

// A PCIe link: generation 1..6 and lane count. 0 means "not known".
struct PcieLink {
  int gen = 0;
  int width = 0;
  bool known() const { return gen > 0 && width > 0; }
};

bool operator==(const PcieLink& a, const PcieLink& b);
// "gen3 x16"; "unknown" when either part is missing.
std::string to_string(const PcieLink& link);

inline constexpr int kMaxPcieGen = 6;
// The max payload size (bytes per TLP) assumed when the rig does not tell: the common server
// setting, and the one REFERENCE.md's ceilings use.
inline constexpr int kAssumedMaxPayload = 256;

// Transfer rate of one lane in GT/s: 2.5, 5, 8, 16, 32, 64. Throws std::invalid_argument for a
// generation outside 1..6.
double transfer_rate_gt_per_s(int gen);
// The generation whose lane rate is `gt_per_s` (as sysfs prints it, e.g. 8.0); 0 when none is.
int gen_from_transfer_rate(double gt_per_s);

// Per-direction bytes one lane carries after line encoding: 8b/10b for gen1-2, 128b/130b for
// gen3-5, PAM4 with 242/256-byte FLITs for gen6 (hwloc uses the same factors, so its linkspeed
// equals raw_gb_per_s of the trained link).
double lane_gb_per_s(int gen);
double raw_gb_per_s(const PcieLink& link);

// Bytes each TLP spends besides its payload: ~20 for gen1-5 (header 12-16, sequence number 2,
// LCRC 4, framing), ~16 for gen6 in FLIT mode, where sequence numbers and CRC move into the FLIT
// (approximate: gen6 header sizes vary).
int tlp_overhead_bytes(int gen);
// MPS / (MPS + overhead): 86.5% at 128 bytes, 92.8% at 256, 96.2% at 512 (gen1-5).
double payload_efficiency(int gen, int max_payload);

// What a link can carry in one direction: the raw rate after encoding, and the part of it left
// for data once TLP overhead is paid. link_pct is measured against `payload_gb_per_s`.
struct LinkCeiling {
  double raw_gb_per_s = 0;
  double payload_gb_per_s = 0;
  int max_payload = 0;
  bool known() const { return payload_gb_per_s > 0; }
};

LinkCeiling link_ceiling(const PcieLink& link, int max_payload);
// When only the raw rate is known (hwloc's linkspeed without generation and width): gen1-5 TLP
// overhead is assumed, which is what every generation but gen6 uses.
LinkCeiling ceiling_from_raw(double raw_gb_per_s, int max_payload);

// hwloc reports only the product of lane rate and width; every (gen, width) with that raw rate
// within 0.5%, lowest generation first (15.75 GB/s: gen3 x16, gen4 x8, gen5 x4).
std::vector<PcieLink> links_with_raw_rate(double raw_gb_per_s);

// k GPUs behind one uplink: together they get at most the uplink, and at most the sum of their
// own links; `per_gpu_gb_per_s` is the aggregate shared evenly.
struct SharedCeiling {
  double aggregate_gb_per_s = 0;
  double per_gpu_gb_per_s = 0;
};
SharedCeiling shared_uplink_ceiling(double uplink_gb_per_s,
                                    const std::vector<double>& gpu_gb_per_s);

// Percent of `ceiling_gb_per_s` that `measured_gb_per_s` reached; 0 when the ceiling is unknown.
double link_pct(double measured_gb_per_s, double ceiling_gb_per_s);

// What crossing NUMA nodes does to a host<->device copy, in words. The link ceiling does not
// change; the path to memory gets longer and shares the inter-socket link.
std::string numa_crossing_effect();
// The same for one placement, or empty when the memory is on the GPU's node or either node is
// unknown (-1).
std::string numa_crossing_note(int gpu_node, int memory_node);

}  // namespace h2d
