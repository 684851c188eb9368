#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/core/device_info.hpp"
#include "harness/topology/hwloc_topology.hpp"
#include "harness/topology/link_model.hpp"
#include "harness/topology/pcie_reading.hpp"

namespace h2d {

// Where GPUs sit on a machine: the PCI tree from each host bridge down to each NVIDIA GPU, the
// PCIe link of every hop, which GPUs share a switch's uplink, and which NUMA node each hangs from.
// Built from hwloc (this machine or an XML file), so any rig can be described in a test. No CUDA:
// GPUs are found by PCI vendor and class, and CUDA devices are matched to them by bus id.

enum class PciRole {
  host_bridge,
  root_port,
  switch_upstream,
  switch_downstream,
  bridge,
  gpu,
  device
};
std::string_view to_string(PciRole role);

// A PCIe link and what it can carry.
struct LinkInfo {
  PcieLink current;           // as trained when the topology was read
  PcieLink max;               // the most both ends support
  double hwloc_gb_per_s = 0;  // hwloc's linkspeed (the trained link's raw rate)
  int max_payload = 0;        // bytes per TLP the ceiling uses
  bool max_payload_assumed = true;
  // What the ceiling assumes: the highest generation both ends support at the trained width.
  // GPUs drop to a lower generation when idle, so the generation read at rest says little, while
  // a width below the maximum stays under load.
  PcieLink rated;
  LinkCeiling ceiling;
  std::vector<PcieLink> candidates;  // when hwloc's rate is all there is: what it could be
  std::string basis;                 // how the ceiling was obtained, in words
};

// One hwloc PCI object: a host bridge, a port or bridge, or a device.
struct PciNode {
  std::string bus_id;  // "0000:03:00.0"; a host bridge: its bus range, "0000:[00-0f]"
  PciRole role = PciRole::device;
  unsigned vendor_id = 0;
  unsigned device_id = 0;
  unsigned class_id = 0;
  std::string name;           // hwloc's PCIDevice name, when it knows one
  double hwloc_gb_per_s = 0;  // hwloc's linkspeed of this function
  PcieReading reading;        // sysfs and config space, or the XML's PCIe* infos
  int parent = -1;
  std::vector<int> children;
  int numa_node = -1;     // of the CPU-side object it hangs from; -1 when that spans several nodes
  std::string cpus;       // that object's CPUs as a list, "0-11,24-35"
  bool has_link = false;  // a physical link above it (endpoints, switch upstream ports)
  LinkInfo link;          // that link, when has_link
};

struct GpuTopology {
  int index = 0;          // position in PCI bus order
  int cuda_ordinal = -1;  // the CUDA device with this bus id, when one is attached
  int node = -1;          // into Topology::nodes
  std::string bus_id;
  std::string name;
  int numa_node = -1;
  std::string cpus;
  std::vector<int> path;           // nodes from the GPU's parent up to its host bridge
  std::vector<int> uplink_groups;  // into Topology::uplink_groups, innermost first
  std::vector<std::string> warnings;
};

// GPUs behind one switch uplink: moving data to all of them at once, they share it.
struct UplinkGroup {
  int node = -1;  // the switch upstream port; its link is the shared one
  std::string bus_id;
  std::vector<int> gpus;  // GpuTopology::index
  SharedCeiling ceiling;  // every link on the way counted; zero when a GPU's link is unknown
};

struct NumaNodeInfo {
  int os_index = 0;
  std::string cpus;
  std::uint64_t memory_bytes = 0;
};

struct Topology {
  std::string source;  // "this machine" or the XML file
  bool this_system = false;
  std::string machine;  // DMI product name or host name, when the topology has one
  std::vector<NumaNodeInfo> numa_nodes;
  std::vector<PciNode> nodes;
  std::vector<GpuTopology> gpus;
  std::vector<UplinkGroup> uplink_groups;
  std::size_t pci_devices = 0;        // PCI functions that are not bridges
  std::vector<std::string> warnings;  // links running below what they support
  std::vector<std::string> notes;     // NUMA placement and what crossing it costs

  const GpuTopology* gpu_by_bus_id(const std::string& bus_id) const;
  const GpuTopology* gpu_by_ordinal(int cuda_ordinal) const;
  // The NUMA node of the GPU with this CUDA ordinal; -1 when it or its node is not known.
  int numa_node_of(int cuda_ordinal) const;
  // The link of a GPU (its own, from its node).
  const LinkInfo& link_of(const GpuTopology& gpu) const { return nodes.at(gpu.node).link; }
};

// NVIDIA (vendor 0x10de) display or 3D controller (class 0x03xx): what a GPU is, without a driver.
bool is_nvidia_gpu(unsigned vendor_id, unsigned class_id);

// "0000:3B:00.0" and nvidia-smi's "00000000:3B:00.0" both as "0000:3b:00.0"; a 32-bit domain
// (VMD, Hyper-V: "00010000:E1:00.0") as Linux spells it, "10000:e1:00.0". Text that is no bus id
// comes back lowercased.
std::string normalize_bus_id(std::string bus_id);

// "0000:17:00.0": the domain with at least 4 hex digits (8 for VMD / Hyper-V domains), lowercase.
std::string format_bus_id(unsigned domain, unsigned bus, unsigned dev, unsigned func);
// DOMAIN:BUS:DEVICE.FUNCTION in hex, with a domain of 1 to 8 digits.
bool is_bus_id(const std::string& text);

Topology build_topology(const HwlocTopology& hwloc);

// Sets cuda_ordinal on the GPUs whose bus id a CUDA device has.
void attach_cuda_devices(Topology& topology, const std::vector<DeviceInfo>& devices);

// The most the GPUs `gpu_indices` can receive together, in GB/s: every link from the host bridges
// down to them limits what passes through it (a tree's maximum flow, with each link's payload
// ceiling as capacity). nullopt when a GPU's own link is unknown; unknown links above a GPU do not
// limit. Throws std::out_of_range for an index that is not a GPU.
std::optional<double> concurrent_ceiling(const Topology& topology,
                                         const std::vector<int>& gpu_indices);

// This process's machine (or HWLOC_XMLFILE's), built once. run_topology() (harness/suite/) is the
// same with this run's CUDA devices attached.
const Topology& system_topology();

}  // namespace h2d
