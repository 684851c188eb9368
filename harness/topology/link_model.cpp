#include "harness/topology/link_model.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

namespace h2d {
namespace {

void check_gen(int gen) {
  if (gen < 1 || gen > kMaxPcieGen) {
    throw std::invalid_argument(
        fmt::format("PCIe generation {} is not one of 1..{}", gen, kMaxPcieGen));
  }
}

// Fraction of line bits that carry data.
double encoding_efficiency(int gen) {
  if (gen <= 2) {
    return 8.0 / 10.0;
  }
  if (gen <= 5) {
    return 128.0 / 130.0;
  }
  return 242.0 / 256.0;  // FLIT: 242 of 256 bytes are TLP and DLLP bytes, the rest CRC and FEC
}

}  // namespace

bool operator==(const PcieLink& a, const PcieLink& b) {
  return a.gen == b.gen && a.width == b.width;
}

std::string to_string(const PcieLink& link) {
  if (!link.known()) {
    return "unknown";
  }
  return fmt::format("gen{} x{}", link.gen, link.width);
}

double transfer_rate_gt_per_s(int gen) {
  check_gen(gen);
  static const double rates[] = {2.5, 5.0, 8.0, 16.0, 32.0, 64.0};
  return rates[gen - 1];
}

int gen_from_transfer_rate(double gt_per_s) {
  for (int gen = 1; gen <= kMaxPcieGen; ++gen) {
    if (std::abs(gt_per_s - transfer_rate_gt_per_s(gen)) < 0.01) {
      return gen;
    }
  }
  return 0;
}

double lane_gb_per_s(int gen) {
  return transfer_rate_gt_per_s(gen) * encoding_efficiency(gen) / 8.0;
}

double raw_gb_per_s(const PcieLink& link) {
  if (!link.known()) {
    throw std::invalid_argument("the raw rate of a link needs its generation and width");
  }
  return lane_gb_per_s(link.gen) * link.width;
}

int tlp_overhead_bytes(int gen) {
  check_gen(gen);
  return gen <= 5 ? 20 : 16;
}

double payload_efficiency(int gen, int max_payload) {
  if (max_payload <= 0) {
    throw std::invalid_argument(fmt::format("max payload size {} is not positive", max_payload));
  }
  return static_cast<double>(max_payload) / (max_payload + tlp_overhead_bytes(gen));
}

LinkCeiling link_ceiling(const PcieLink& link, int max_payload) {
  LinkCeiling ceiling;
  ceiling.raw_gb_per_s = raw_gb_per_s(link);
  ceiling.payload_gb_per_s = ceiling.raw_gb_per_s * payload_efficiency(link.gen, max_payload);
  ceiling.max_payload = max_payload;
  return ceiling;
}

LinkCeiling ceiling_from_raw(double raw, int max_payload) {
  LinkCeiling ceiling;
  if (raw <= 0) {
    return ceiling;
  }
  ceiling.raw_gb_per_s = raw;
  ceiling.payload_gb_per_s = raw * payload_efficiency(3, max_payload);
  ceiling.max_payload = max_payload;
  return ceiling;
}

std::vector<PcieLink> links_with_raw_rate(double raw) {
  std::vector<PcieLink> links;
  if (raw <= 0) {
    return links;
  }
  for (int gen = 1; gen <= kMaxPcieGen; ++gen) {
    for (int width : {1, 2, 4, 8, 16}) {
      const double rate = lane_gb_per_s(gen) * width;
      if (std::abs(rate - raw) <= 0.005 * raw) {
        links.push_back({gen, width});
      }
    }
  }
  return links;
}

SharedCeiling shared_uplink_ceiling(double uplink, const std::vector<double>& gpus) {
  SharedCeiling shared;
  if (gpus.empty()) {
    return shared;
  }
  double sum = 0;
  for (double gpu : gpus) {
    sum += gpu;
  }
  shared.aggregate_gb_per_s = uplink > 0 ? std::min(uplink, sum) : sum;
  shared.per_gpu_gb_per_s = shared.aggregate_gb_per_s / static_cast<double>(gpus.size());
  return shared;
}

double link_pct(double measured, double ceiling) {
  return ceiling > 0 ? 100.0 * measured / ceiling : 0.0;
}

std::string numa_crossing_effect() {
  return "every byte crosses the inter-socket link before it reaches the GPU's PCIe root; pinned "
         "copies from a remote node have been measured from ~30% to over 3x slower than from the "
         "local node";
}

std::string numa_crossing_note(int gpu_node, int memory_node) {
  if (gpu_node < 0 || memory_node < 0 || gpu_node == memory_node) {
    return {};
  }
  return fmt::format("host memory on NUMA node {} and the GPU on node {}: {}", memory_node,
                     gpu_node, numa_crossing_effect());
}

}  // namespace h2d
