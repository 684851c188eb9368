#include "sim/runtime/sim_topology.hpp"

#include <hwloc.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>

#include "sim/runtime/config.hpp"

namespace h2d::sim {
namespace {

constexpr unsigned kNvidiaVendor = 0x10de;
constexpr int kAssumedMaxPayload = 256;

struct TopologyCloser {
  void operator()(hwloc_topology* topology) const { hwloc_topology_destroy(topology); }
};

[[noreturn]] void reject(const std::string& file, const std::string& why) {
  throw ConfigError("H2D_SIM_TOPOLOGY", file, why);
}

std::string bus_id_of(const hwloc_obj_attr_u::hwloc_pcidev_attr_s& pci) {
  char text[32];
  std::snprintf(text, sizeof text, "%04x:%02x:%02x.%x", pci.domain, pci.bus, pci.dev, pci.func);
  return text;
}

int max_payload_of(hwloc_obj_t obj) {
  const char* value = hwloc_obj_get_info_by_name(obj, "PCIeMaxPayload");
  const int payload = value != nullptr ? std::atoi(value) : 0;
  return payload > 0 ? payload : kAssumedMaxPayload;
}

}  // namespace

double payload_bytes_per_s(double raw_gb_per_s, int max_payload) {
  return raw_gb_per_s * 1e9 * max_payload / (max_payload + 20.0);
}

SimTopology load_sim_topology(const std::string& xml_file) {
  hwloc_topology_t raw = nullptr;
  if (hwloc_topology_init(&raw) != 0) {
    reject(xml_file, "hwloc could not start");
  }
  std::unique_ptr<hwloc_topology, TopologyCloser> topology(raw);
  if (hwloc_topology_set_xml(raw, xml_file.c_str()) != 0) {
    reject(xml_file, "the file cannot be read as an hwloc XML");
  }
  hwloc_topology_set_io_types_filter(raw, HWLOC_TYPE_FILTER_KEEP_ALL);
  if (hwloc_topology_load(raw) != 0) {
    reject(xml_file, "hwloc could not load it");
  }
  std::vector<hwloc_obj_t> gpu_objects;
  for (hwloc_obj_t obj = hwloc_get_next_pcidev(raw, nullptr); obj != nullptr;
       obj = hwloc_get_next_pcidev(raw, obj)) {
    if (obj->attr->pcidev.vendor_id == kNvidiaVendor && (obj->attr->pcidev.class_id >> 8) == 0x03) {
      gpu_objects.push_back(obj);
    }
  }
  if (gpu_objects.empty()) {
    reject(xml_file, "it has no NVIDIA GPU (vendor 0x10de, class 03xx)");
  }
  std::sort(gpu_objects.begin(), gpu_objects.end(), [](hwloc_obj_t a, hwloc_obj_t b) {
    return bus_id_of(a->attr->pcidev) < bus_id_of(b->attr->pcidev);
  });
  SimTopology result;
  // Bridges above each GPU, keyed by the set of GPUs below them: a root port and the switch
  // upstream port under it carry the same physical link, so one group per GPU set.
  std::map<std::vector<int>, SimTopology::SharedLink> groups;
  std::map<hwloc_obj_t, std::vector<int>> below;
  for (std::size_t i = 0; i < gpu_objects.size(); ++i) {
    hwloc_obj_t gpu = gpu_objects[i];
    const double own = gpu->attr->pcidev.linkspeed;
    result.gpus.push_back({bus_id_of(gpu->attr->pcidev),
                           own > 0 ? payload_bytes_per_s(own, max_payload_of(gpu)) : 0});
    for (hwloc_obj_t up = gpu->parent; up != nullptr && up->type == HWLOC_OBJ_BRIDGE;
         up = up->parent) {
      if (up->attr->bridge.upstream_type == HWLOC_OBJ_BRIDGE_PCI) {
        below[up].push_back(static_cast<int>(i));
      }
    }
  }
  for (const auto& [bridge, gpus] : below) {
    if (gpus.size() < 2) {
      continue;
    }
    SimTopology::SharedLink& link = groups[gpus];
    link.gpus = gpus;
    const double raw_gb_per_s = bridge->attr->bridge.upstream.pci.linkspeed;
    if (raw_gb_per_s > 0) {
      const double rate = payload_bytes_per_s(raw_gb_per_s, max_payload_of(bridge));
      if (link.bytes_per_s == 0 || rate < link.bytes_per_s) {
        link.bytes_per_s = rate;
        link.bus_id = bus_id_of(bridge->attr->bridge.upstream.pci);
      }
    } else if (link.bus_id.empty()) {
      link.bus_id = bus_id_of(bridge->attr->bridge.upstream.pci);
    }
  }
  for (auto& [gpus, link] : groups) {
    result.shared_links.push_back(std::move(link));
  }
  return result;
}

}  // namespace h2d::sim
