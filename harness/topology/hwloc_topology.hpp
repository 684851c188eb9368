#pragma once

#include <hwloc.h>

#include <cstddef>
#include <string>

namespace h2d {

// The largest hwloc XML h2dbench reads (--xml, HWLOC_XMLFILE): a rig of 8 GPUs and 2 sockets is
// about 100 KiB; /dev/zero is not a topology.
constexpr std::size_t kMaxTopologyXmlBytes = std::size_t{64} << 20;

// RAII hwloc topology loaded with every PCI bridge and device kept (hwloc drops I/O objects by
// default). Move-only.
class HwlocTopology {
 public:
  // This machine, or the file HWLOC_XMLFILE names when it is set (hwloc alone would fall back to
  // this machine, silently, when that file is bad; here a bad file is a UsageError).
  static HwlocTopology load_system();
  // An hwloc XML file. `origin` names where the path came from ("--xml", "HWLOC_XMLFILE") so a
  // missing or unreadable file is a UsageError the user can act on.
  static HwlocTopology load_xml(const std::string& path, const std::string& origin);

  HwlocTopology(HwlocTopology&& other) noexcept;
  HwlocTopology& operator=(HwlocTopology&& other) noexcept;
  HwlocTopology(const HwlocTopology&) = delete;
  HwlocTopology& operator=(const HwlocTopology&) = delete;
  ~HwlocTopology();

  hwloc_topology_t get() const { return topology_; }
  // Whether the topology describes the machine this process runs on (memory binding and sysfs
  // readings make sense only then).
  bool this_system() const;
  // "this machine" or the XML file's path.
  const std::string& source() const { return source_; }

 private:
  HwlocTopology() = default;
  void release() noexcept;

  hwloc_topology_t topology_ = nullptr;
  std::string source_;
};

// The process-wide topology of load_system(), loaded on first use and kept: memory binding
// (hwloc_alloc_membind / hwloc_free) needs one topology for the lifetime of its buffers.
const HwlocTopology& system_hwloc();

}  // namespace h2d
