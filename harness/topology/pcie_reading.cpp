#include "harness/topology/pcie_reading.hpp"

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>

namespace h2d {
namespace {

// Offsets in the PCI configuration header and in the PCI Express capability (PCIe base spec).
constexpr std::size_t kStatus = 0x06;
constexpr unsigned kStatusCapabilityList = 0x10;
constexpr std::size_t kCapabilityPointer = 0x34;
constexpr unsigned kCapabilityIdExpress = 0x10;
constexpr std::size_t kExpressFlags = 0x02;
constexpr std::size_t kDeviceControl = 0x08;
constexpr std::size_t kLinkCapabilities = 0x0C;
constexpr std::size_t kLinkStatus = 0x12;
constexpr std::size_t kLinkStatusEnd = 0x14;

unsigned read16(const std::vector<unsigned char>& config, std::size_t at) {
  return config[at] | (static_cast<unsigned>(config[at + 1]) << 8);
}

// A 4-bit speed code (Link Capabilities or Link Status) is the generation: 1 = 2.5 GT/s ... 6.
int gen_from_code(unsigned code) {
  return code >= 1 && code <= static_cast<unsigned>(kMaxPcieGen) ? static_cast<int>(code) : 0;
}

PciePortType port_type_from_code(unsigned code) {
  switch (code) {
    case 0x0:  // PCI Express endpoint
    case 0x1:  // legacy endpoint
    case 0x9:  // root complex integrated endpoint
      return PciePortType::endpoint;
    case 0x4:
      return PciePortType::root_port;
    case 0x5:
      return PciePortType::switch_upstream;
    case 0x6:
      return PciePortType::switch_downstream;
    case 0x7:  // PCIe to PCI/PCI-X bridge
    case 0x8:  // PCI/PCI-X to PCIe bridge
      return PciePortType::bridge;
    default:
      return PciePortType::unknown;
  }
}

std::string read_text(const std::string& path) {
  std::ifstream file(path);
  std::string text;
  std::getline(file, text);
  return text;
}

std::string trim(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) {
    return {};
  }
  const std::size_t last = text.find_last_not_of(" \t\r\n");
  return std::string(text.substr(first, last - first + 1));
}

}  // namespace

std::string_view to_string(PciePortType type) {
  switch (type) {
    case PciePortType::endpoint:
      return "endpoint";
    case PciePortType::root_port:
      return "root_port";
    case PciePortType::switch_upstream:
      return "switch_upstream";
    case PciePortType::switch_downstream:
      return "switch_downstream";
    case PciePortType::bridge:
      return "bridge";
    case PciePortType::unknown:
      break;
  }
  return "unknown";
}

PciePortType parse_port_type(std::string_view text) {
  for (PciePortType type :
       {PciePortType::endpoint, PciePortType::root_port, PciePortType::switch_upstream,
        PciePortType::switch_downstream, PciePortType::bridge}) {
    if (to_string(type) == text) {
      return type;
    }
  }
  return PciePortType::unknown;
}

int parse_sysfs_link_speed(std::string_view text) {
  const std::string value = trim(text);
  if (value.empty()) {
    return 0;
  }
  char* end = nullptr;
  const double rate = std::strtod(value.c_str(), &end);
  if (end == value.c_str() || std::string_view(end).find("GT/s") == std::string_view::npos) {
    return 0;
  }
  return gen_from_transfer_rate(rate);
}

int parse_sysfs_link_width(std::string_view text) {
  const std::string value = trim(text);
  if (value.empty() || value.find_first_not_of("0123456789") != std::string::npos ||
      value.size() > 3) {
    return 0;
  }
  return std::atoi(value.c_str());
}

PcieReading parse_pcie_config(const std::vector<unsigned char>& config) {
  PcieReading reading;
  if (config.size() <= kCapabilityPointer || !(config[kStatus] & kStatusCapabilityList)) {
    return reading;
  }
  bool seen[256] = {};
  for (std::size_t at = config[kCapabilityPointer] & ~3u; at != 0 && at + 1 < config.size();
       at = config[at + 1] & ~3u) {
    if (seen[at]) {
      break;  // a looping list
    }
    seen[at] = true;
    if (config[at] != kCapabilityIdExpress) {
      continue;
    }
    if (at + kLinkStatusEnd > config.size()) {
      break;
    }
    reading.port_type = port_type_from_code((read16(config, at + kExpressFlags) >> 4) & 0xF);
    const unsigned payload_code = (read16(config, at + kDeviceControl) >> 5) & 0x7;
    reading.max_payload = payload_code <= 5 ? 128 << payload_code : 0;
    const unsigned link_caps = read16(config, at + kLinkCapabilities);
    reading.max = {gen_from_code(link_caps & 0xF), static_cast<int>((link_caps >> 4) & 0x3F)};
    const unsigned link_status = read16(config, at + kLinkStatus);
    reading.current = {gen_from_code(link_status & 0xF),
                       static_cast<int>((link_status >> 4) & 0x3F)};
    break;
  }
  return reading;
}

std::string sysfs_pci_device_dir(const std::string& bus_id) {
  return "/sys/bus/pci/devices/" + bus_id;
}

PcieReading read_sysfs_pcie(const std::string& device_dir) {
  std::ifstream config_file(device_dir + "/config", std::ios::binary);
  const std::vector<unsigned char> config((std::istreambuf_iterator<char>(config_file)),
                                          std::istreambuf_iterator<char>());
  PcieReading reading = parse_pcie_config(config);
  const auto take = [](int& field, int value) {
    if (value > 0) {
      field = value;
    }
  };
  take(reading.current.gen, parse_sysfs_link_speed(read_text(device_dir + "/current_link_speed")));
  take(reading.current.width,
       parse_sysfs_link_width(read_text(device_dir + "/current_link_width")));
  take(reading.max.gen, parse_sysfs_link_speed(read_text(device_dir + "/max_link_speed")));
  take(reading.max.width, parse_sysfs_link_width(read_text(device_dir + "/max_link_width")));
  return reading;
}

}  // namespace h2d
