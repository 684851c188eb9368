#include "harness/topology/hwloc_topology.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <utility>

#include "harness/core/bounded_file.hpp"
#include "harness/core/usage_error.hpp"

namespace h2d {
namespace {

hwloc_topology_t init_with_io() {
  hwloc_topology_t topology = nullptr;
  if (hwloc_topology_init(&topology) != 0) {
    throw std::runtime_error("hwloc_topology_init failed");
  }
  // Bridges too, so the chain from each GPU up to its host bridge is there. OS devices (disk, NIC,
  // CUDA/NVML/OpenCL/GL handles) are not needed, and leaving them out keeps hwloc's GPU plugins
  // from initialising vendor libraries (or probing X displays) inside a benchmark process.
  hwloc_topology_set_io_types_filter(topology, HWLOC_TYPE_FILTER_KEEP_ALL);
  hwloc_topology_set_type_filter(topology, HWLOC_OBJ_OS_DEVICE, HWLOC_TYPE_FILTER_KEEP_NONE);
  return topology;
}

}  // namespace

HwlocTopology HwlocTopology::load_system() {
  const char* xml = std::getenv("HWLOC_XMLFILE");
  if (xml != nullptr && *xml != '\0') {
    return load_xml(xml, "HWLOC_XMLFILE");
  }
  HwlocTopology loaded;
  loaded.topology_ = init_with_io();
  loaded.source_ = "this machine";
  if (hwloc_topology_load(loaded.topology_) != 0) {
    throw std::runtime_error(
        fmt::format("hwloc could not read this machine's topology: {}", std::strerror(errno)));
  }
  return loaded;
}

HwlocTopology HwlocTopology::load_xml(const std::string& path, const std::string& origin) {
  // Read here, within a cap, rather than by hwloc: hwloc_topology_set_xml("/dev/zero") grew
  // without limit (5.8 GB in 10 s). A folder, device or FIFO is refused before reading.
  const std::string xml = read_bounded_file(path, origin, kMaxTopologyXmlBytes);
  HwlocTopology loaded;
  loaded.topology_ = init_with_io();
  loaded.source_ = path;
  const std::string not_xml = fmt::format(
      "{} '{}' is not an hwloc XML topology that hwloc {} can read (write one with "
      "`lstopo --of xml` or `h2dbench topology --export FILE`)",
      origin, path, HWLOC_VERSION);
  // The size hwloc wants includes the terminating NUL, as hwloc_topology_export_xmlbuffer's does.
  if (hwloc_topology_set_xmlbuffer(loaded.topology_, xml.c_str(),
                                   static_cast<int>(xml.size() + 1)) != 0) {
    throw UsageError(not_xml);
  }
  if (hwloc_topology_load(loaded.topology_) != 0) {
    throw UsageError(not_xml);
  }
  return loaded;
}

HwlocTopology::HwlocTopology(HwlocTopology&& other) noexcept
    : topology_(std::exchange(other.topology_, nullptr)), source_(std::move(other.source_)) {}

HwlocTopology& HwlocTopology::operator=(HwlocTopology&& other) noexcept {
  if (this != &other) {
    release();
    topology_ = std::exchange(other.topology_, nullptr);
    source_ = std::move(other.source_);
  }
  return *this;
}

HwlocTopology::~HwlocTopology() {
  release();
}

void HwlocTopology::release() noexcept {
  if (topology_ != nullptr) {
    hwloc_topology_destroy(topology_);
    topology_ = nullptr;
  }
}

bool HwlocTopology::this_system() const {
  return topology_ != nullptr && hwloc_topology_is_thissystem(topology_) != 0;
}

const HwlocTopology& system_hwloc() {
  static const HwlocTopology topology = HwlocTopology::load_system();
  return topology;
}

}  // namespace h2d
