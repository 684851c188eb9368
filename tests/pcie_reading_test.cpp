#include "harness/topology/pcie_reading.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace h2d {
namespace {

TEST(PcieReading, SysfsLinkSpeeds) {
  EXPECT_EQ(parse_sysfs_link_speed("8.0 GT/s PCIe\n"), 3);
  EXPECT_EQ(parse_sysfs_link_speed("8 GT/s"), 3);  // older kernels
  EXPECT_EQ(parse_sysfs_link_speed("2.5 GT/s PCIe"), 1);
  EXPECT_EQ(parse_sysfs_link_speed("5.0 GT/s PCIe"), 2);
  EXPECT_EQ(parse_sysfs_link_speed("16.0 GT/s PCIe"), 4);
  EXPECT_EQ(parse_sysfs_link_speed("32.0 GT/s PCIe"), 5);
  EXPECT_EQ(parse_sysfs_link_speed("64.0 GT/s PCIe"), 6);
  EXPECT_EQ(parse_sysfs_link_speed("Unknown"), 0);
  EXPECT_EQ(parse_sysfs_link_speed(""), 0);
  EXPECT_EQ(parse_sysfs_link_speed("8.0"), 0);
}

TEST(PcieReading, SysfsLinkWidths) {
  EXPECT_EQ(parse_sysfs_link_width("16\n"), 16);
  EXPECT_EQ(parse_sysfs_link_width(" 8 "), 8);
  EXPECT_EQ(parse_sysfs_link_width("0"), 0);
  EXPECT_EQ(parse_sysfs_link_width("x16"), 0);
  EXPECT_EQ(parse_sysfs_link_width(""), 0);
}

TEST(PcieReading, PortTypeNamesRoundTrip) {
  for (PciePortType type :
       {PciePortType::endpoint, PciePortType::root_port, PciePortType::switch_upstream,
        PciePortType::switch_downstream, PciePortType::bridge}) {
    EXPECT_EQ(parse_port_type(to_string(type)), type);
  }
  EXPECT_EQ(parse_port_type("switch"), PciePortType::unknown);
}

// A config space with a vendor capability at 0x40 that links to the PCI Express capability at 0x60.
std::vector<unsigned char> downstream_port_config() {
  std::vector<unsigned char> config(256, 0);
  config[0x06] = 0x10;  // status: capability list present
  config[0x34] = 0x40;
  config[0x40] = 0x09;  // vendor specific
  config[0x41] = 0x60;
  config[0x60] = 0x10;  // PCI Express
  config[0x61] = 0x00;  // last
  config[0x62] = 0x62;  // version 2, port type 6 (downstream)
  config[0x68] = 0x20;  // device control: MPS code 1 = 256 bytes
  config[0x6C] = 0x04;  // link capabilities: 16 GT/s ...
  config[0x6D] = 0x01;  // ... x16 (width 16 << 4 = 0x100)
  config[0x72] = 0x83;  // link status: 8 GT/s, x8 (8 << 4 = 0x80)
  return config;
}

TEST(PcieReading, ConfigSpaceGivesPortPayloadAndLinks) {
  const PcieReading reading = parse_pcie_config(downstream_port_config());
  EXPECT_EQ(reading.port_type, PciePortType::switch_downstream);
  EXPECT_EQ(reading.max_payload, 256);
  EXPECT_EQ(reading.max, (PcieLink{4, 16}));
  EXPECT_EQ(reading.current, (PcieLink{3, 8}));
  EXPECT_TRUE(reading.any());
}

TEST(PcieReading, UnprivilegedOrBrokenConfigSaysNothing) {
  std::vector<unsigned char> header = downstream_port_config();
  header.resize(64);  // what a non-root reader gets
  EXPECT_FALSE(parse_pcie_config(header).any());
  std::vector<unsigned char> looping = downstream_port_config();
  looping[0x41] = 0x40;  // the vendor capability points at itself
  EXPECT_FALSE(parse_pcie_config(looping).any());
  EXPECT_FALSE(parse_pcie_config({}).any());
}

TEST(PcieReading, SysfsFilesWinOverConfigSpace) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("h2d_pcie_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  {
    std::ofstream(dir / "config", std::ios::binary)
        .write(reinterpret_cast<const char*>(downstream_port_config().data()), 256);
    std::ofstream(dir / "current_link_speed") << "16.0 GT/s PCIe\n";
    std::ofstream(dir / "current_link_width") << "16\n";
  }
  const PcieReading reading = read_sysfs_pcie(dir.string());
  EXPECT_EQ(reading.current, (PcieLink{4, 16}));  // from the files
  EXPECT_EQ(reading.max, (PcieLink{4, 16}));      // from config space
  EXPECT_EQ(reading.port_type, PciePortType::switch_downstream);
  std::filesystem::remove_all(dir);
  EXPECT_FALSE(read_sysfs_pcie(dir.string()).any());
  EXPECT_EQ(sysfs_pci_device_dir("0000:03:00.0"), "/sys/bus/pci/devices/0000:03:00.0");
}

}  // namespace
}  // namespace h2d
