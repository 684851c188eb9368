#include "harness/topology/topology.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "harness/core/usage_error.hpp"
#include "harness/topology/topology_report.hpp"
#include "tests/topology_fixture.hpp"

namespace h2d {
namespace {

std::string fixture(const std::string& name) {
  return testing::fixture_path(name);
}

Topology load(const std::string& name) {
  return testing::load_fixture(name);
}

double gen3_x16() {
  return link_ceiling({3, 16}, 256).payload_gb_per_s;
}
double gen4_x16() {
  return link_ceiling({4, 16}, 256).payload_gb_per_s;
}

std::vector<std::string> bus_ids(const Topology& topology) {
  std::vector<std::string> ids;
  for (const GpuTopology& gpu : topology.gpus) {
    ids.push_back(gpu.bus_id);
  }
  return ids;
}

TEST(Topology, SixGpuGen3RigHasTwoSwitchGroupsOfThree) {
  const Topology t = load("six_gpu_gen3_two_switches.xml");
  EXPECT_FALSE(t.this_system);
  EXPECT_NE(t.machine.find("1080 Ti"), std::string::npos);
  EXPECT_EQ(bus_ids(t), (std::vector<std::string>{"0000:04:00.0", "0000:05:00.0", "0000:06:00.0",
                                                  "0000:0a:00.0", "0000:0b:00.0", "0000:0c:00.0"}));
  EXPECT_EQ(t.pci_devices, 14u);  // 6 GPUs, their 6 audio functions, an NVMe drive, SATA
  ASSERT_EQ(t.numa_nodes.size(), 1u);
  for (const GpuTopology& gpu : t.gpus) {
    EXPECT_EQ(gpu.numa_node, 0) << gpu.bus_id;
    EXPECT_EQ(gpu.cpus, "0-7");
    EXPECT_EQ(gpu.cuda_ordinal, -1);
    EXPECT_EQ(gpu.name, "GP102 [GeForce GTX 1080 Ti]");
  }
  ASSERT_EQ(t.uplink_groups.size(), 2u);
  EXPECT_EQ(t.uplink_groups[0].bus_id, "0000:02:00.0");
  EXPECT_EQ(t.uplink_groups[0].gpus, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(t.uplink_groups[1].bus_id, "0000:08:00.0");
  EXPECT_EQ(t.uplink_groups[1].gpus, (std::vector<int>{3, 4, 5}));
  for (const UplinkGroup& group : t.uplink_groups) {
    EXPECT_NEAR(group.ceiling.aggregate_gb_per_s, gen3_x16(), 1e-6);
    EXPECT_NEAR(group.ceiling.per_gpu_gb_per_s, gen3_x16() / 3, 1e-6);
    EXPECT_EQ(t.nodes[static_cast<std::size_t>(group.node)].role, PciRole::switch_upstream);
  }
  EXPECT_EQ(t.gpus[0].uplink_groups, (std::vector<int>{0}));
  EXPECT_EQ(t.gpus[5].uplink_groups, (std::vector<int>{1}));
}

TEST(Topology, SixGpuGen3PathRunsUpToTheHostBridge) {
  const Topology t = load("six_gpu_gen3_two_switches.xml");
  std::vector<std::pair<std::string, PciRole>> path;
  for (int node : t.gpus[0].path) {
    path.emplace_back(t.nodes[static_cast<std::size_t>(node)].bus_id,
                      t.nodes[static_cast<std::size_t>(node)].role);
  }
  const std::vector<std::pair<std::string, PciRole>> expected{
      {"0000:03:08.0", PciRole::switch_downstream},
      {"0000:02:00.0", PciRole::switch_upstream},
      {"0000:00:02.0", PciRole::root_port},
      {"0000:[00-0f]", PciRole::host_bridge}};
  EXPECT_EQ(path, expected);
}

TEST(Topology, SixGpuGen3CeilingsAndWarnings) {
  const Topology t = load("six_gpu_gen3_two_switches.xml");
  for (int index : {0, 1, 3, 5}) {
    const LinkInfo& link = t.link_of(t.gpus[static_cast<std::size_t>(index)]);
    EXPECT_EQ(link.rated, (PcieLink{3, 16}));
    EXPECT_NEAR(link.ceiling.payload_gb_per_s, gen3_x16(), 1e-9);
    EXPECT_FALSE(link.max_payload_assumed);
    EXPECT_TRUE(t.gpus[static_cast<std::size_t>(index)].warnings.empty());
  }
  // 0000:0b:00.0 trained at x8 of x16: half the ceiling, and a warning saying so.
  const GpuTopology& narrow = t.gpus[4];
  EXPECT_EQ(t.link_of(narrow).current, (PcieLink{3, 8}));
  EXPECT_EQ(t.link_of(narrow).max, (PcieLink{3, 16}));
  EXPECT_NEAR(t.link_of(narrow).ceiling.payload_gb_per_s,
              link_ceiling({3, 8}, 256).payload_gb_per_s, 1e-9);
  ASSERT_EQ(narrow.warnings.size(), 1u);
  EXPECT_NE(narrow.warnings[0].find("trained at x8"), std::string::npos);
  EXPECT_NE(narrow.warnings[0].find("x16"), std::string::npos);
  // 0000:06:00.0 was idle (gen1 of gen3): rated at gen3, warned about, not halved.
  const GpuTopology& idle = t.gpus[2];
  EXPECT_EQ(t.link_of(idle).current, (PcieLink{1, 16}));
  EXPECT_EQ(t.link_of(idle).rated, (PcieLink{3, 16}));
  EXPECT_NEAR(t.link_of(idle).ceiling.payload_gb_per_s, gen3_x16(), 1e-9);
  ASSERT_EQ(idle.warnings.size(), 1u);
  EXPECT_NE(idle.warnings[0].find("gen1"), std::string::npos);
  EXPECT_NE(idle.warnings[0].find("idle"), std::string::npos);
  EXPECT_EQ(t.warnings.size(), 2u);
  EXPECT_TRUE(t.notes.empty());  // one NUMA node, every link known
}

TEST(Topology, SixGpuGen3ConcurrentCeilings) {
  const Topology t = load("six_gpu_gen3_two_switches.xml");
  const double x8 = link_ceiling({3, 8}, 256).payload_gb_per_s;
  EXPECT_NEAR(*concurrent_ceiling(t, {0, 1, 2, 3, 4, 5}), 2 * gen3_x16(), 1e-6);
  EXPECT_NEAR(*concurrent_ceiling(t, {0, 1}), gen3_x16(), 1e-6);      // same switch
  EXPECT_NEAR(*concurrent_ceiling(t, {0, 3}), 2 * gen3_x16(), 1e-6);  // one per switch
  EXPECT_NEAR(*concurrent_ceiling(t, {4}), x8, 1e-6);
  EXPECT_NEAR(*concurrent_ceiling(t, {0, 4}), gen3_x16() + x8, 1e-6);
  EXPECT_EQ(*concurrent_ceiling(t, {}), 0.0);
  EXPECT_THROW(concurrent_ceiling(t, {6}), std::out_of_range);
}

TEST(Topology, DualSocketGen4ServerPlacesGpusOnTheirSockets) {
  const Topology t = load("dual_socket_eight_gpu_gen4.xml");
  ASSERT_EQ(t.gpus.size(), 8u);
  ASSERT_EQ(t.numa_nodes.size(), 2u);
  EXPECT_EQ(t.numa_nodes[1].cpus, "16-31");
  EXPECT_EQ(t.numa_nodes[1].memory_bytes, std::uint64_t{256} << 30);
  for (const GpuTopology& gpu : t.gpus) {
    const int socket = gpu.index < 4 ? 0 : 1;
    EXPECT_EQ(gpu.numa_node, socket) << gpu.bus_id;
    EXPECT_EQ(gpu.cpus, socket == 0 ? "0-15" : "16-31") << gpu.bus_id;
    EXPECT_NEAR(t.link_of(gpu).ceiling.payload_gb_per_s, gen4_x16(), 1e-9);
    EXPECT_TRUE(gpu.warnings.empty());
  }
  ASSERT_EQ(t.uplink_groups.size(), 4u);
  const std::vector<std::vector<int>> groups{{0, 1}, {2, 3}, {4, 5}, {6, 7}};
  for (std::size_t g = 0; g < groups.size(); ++g) {
    EXPECT_EQ(t.uplink_groups[g].gpus, groups[g]);  // the NIC beside GPUs 0 and 1 is no GPU
    EXPECT_NEAR(t.uplink_groups[g].ceiling.aggregate_gb_per_s, gen4_x16(), 1e-6);
    EXPECT_NEAR(t.uplink_groups[g].ceiling.per_gpu_gb_per_s, gen4_x16() / 2, 1e-6);
  }
  EXPECT_NEAR(*concurrent_ceiling(t, {0, 1, 2, 3, 4, 5, 6, 7}), 4 * gen4_x16(), 1e-6);
  EXPECT_NEAR(*concurrent_ceiling(t, {0, 2}), 2 * gen4_x16(), 1e-6);
  EXPECT_TRUE(t.warnings.empty());
  ASSERT_EQ(t.notes.size(), 1u);
  EXPECT_NE(t.notes[0].find("2 NUMA nodes"), std::string::npos);
  EXPECT_NE(t.notes[0].find("NUMA node 1: 0000:9a:00.0"), std::string::npos);
}

TEST(Topology, SingleGpuGen5BoxFromPlainLstopo) {
  const Topology t = load("single_gpu_gen5.xml");
  ASSERT_EQ(t.gpus.size(), 1u);
  const GpuTopology& gpu = t.gpus[0];
  EXPECT_EQ(gpu.bus_id, "0000:01:00.0");
  EXPECT_EQ(gpu.numa_node, 0);
  EXPECT_TRUE(t.uplink_groups.empty());
  const LinkInfo& link = t.link_of(gpu);
  // No PCIe* infos: generation and width come from hwloc's rate, the one link that has it.
  EXPECT_EQ(link.rated, (PcieLink{5, 16}));
  EXPECT_FALSE(link.max.known());
  EXPECT_TRUE(link.max_payload_assumed);
  EXPECT_NEAR(link.ceiling.raw_gb_per_s, 63.0, 0.02);
  EXPECT_NEAR(link.ceiling.payload_gb_per_s, 58.5, 0.06);
  // Without port types, a host bridge's bridge is taken for a root port.
  EXPECT_EQ(t.nodes[static_cast<std::size_t>(gpu.path.front())].role, PciRole::root_port);
  ASSERT_EQ(t.notes.size(), 1u);
  EXPECT_NE(t.notes[0].find("only hwloc's link rate"), std::string::npos);
  EXPECT_NEAR(*concurrent_ceiling(t, {0}), link.ceiling.payload_gb_per_s, 1e-9);
}

// The six-GPU rig as plain lstopo would write it: no PCIe* infos. Switch ports are told apart by
// alternation and links by hwloc's rate alone.
TEST(Topology, WithoutPortTypesSwitchesAreStillFound) {
  std::ifstream in(fixture("six_gpu_gen3_two_switches.xml"));
  std::stringstream text;
  text << in.rdbuf();
  const std::string plain = std::regex_replace(
      text.str(), std::regex(R"( *<info name="PCIe[A-Za-z]+" value="[^"]*"/>\n)"), "");
  ASSERT_EQ(plain.find("PCIePortType"), std::string::npos);
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("h2d_plain_" + std::to_string(::getpid()) + ".xml");
  std::ofstream(path) << plain;
  const Topology t = build_topology(HwlocTopology::load_xml(path.string(), "test"));
  std::filesystem::remove(path);
  ASSERT_EQ(t.uplink_groups.size(), 2u);
  EXPECT_EQ(t.uplink_groups[0].gpus, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(t.uplink_groups[1].gpus, (std::vector<int>{3, 4, 5}));
  // 15.75 GB/s could be gen3 x16, gen4 x8 or gen5 x4: the raw rate still gives the ceiling.
  EXPECT_EQ(t.link_of(t.gpus[0]).candidates.size(), 3u);
  EXPECT_NEAR(t.link_of(t.gpus[0]).ceiling.payload_gb_per_s, gen3_x16(), 1e-5);
  // The idle GPU's rate is all there is: its ceiling is what it was trained at when read.
  EXPECT_NEAR(t.link_of(t.gpus[2]).ceiling.raw_gb_per_s, 4.0, 1e-5);
  EXPECT_TRUE(t.warnings.empty());  // no maximum known, nothing to compare with
  ASSERT_EQ(t.notes.size(), 1u);
  EXPECT_NE(t.notes[0].find("0000:06:00.0"), std::string::npos);
}

TEST(Topology, CudaDevicesAreMatchedByBusId) {
  Topology t = load("six_gpu_gen3_two_switches.xml");
  DeviceInfo first;
  first.ordinal = 0;
  first.name = "NVIDIA GeForce GTX 1080 Ti";
  first.pci_bus_id = "00000000:0A:00.0";  // nvidia-smi's spelling
  DeviceInfo second;
  second.ordinal = 1;
  second.pci_bus_id = "0000:04:00.0";
  DeviceInfo elsewhere;
  elsewhere.ordinal = 2;
  elsewhere.pci_bus_id = "0000:99:00.0";
  attach_cuda_devices(t, {first, second, elsewhere});
  EXPECT_EQ(t.gpus[3].cuda_ordinal, 0);
  EXPECT_EQ(t.gpus[3].name, "NVIDIA GeForce GTX 1080 Ti");
  EXPECT_EQ(t.gpus[0].cuda_ordinal, 1);
  EXPECT_EQ(t.gpus[0].name, "GP102 [GeForce GTX 1080 Ti]");  // CUDA gave no name
  EXPECT_EQ(t.gpu_by_ordinal(0), &t.gpus[3]);
  EXPECT_EQ(t.gpu_by_ordinal(2), nullptr);
  EXPECT_EQ(t.gpu_by_bus_id("0000:0B:00.0"), &t.gpus[4]);
  EXPECT_EQ(gpu_label(t, t.gpus[3]), "GPU 0");
  EXPECT_EQ(gpu_label(t, t.gpus[1]), "GPU -");
}

TEST(Topology, GpusWithEightDigitDomainsAreMatched) {
  Topology t = load("six_gpu_gen3_two_switches.xml");
  for (GpuTopology& gpu : t.gpus) {
    gpu.bus_id = "1" + gpu.bus_id;  // as hwloc spells a VMD domain: 10000:0a:00.0
  }
  DeviceInfo vmd;
  vmd.ordinal = 0;
  vmd.pci_bus_id = "00010000:0A:00.0";  // as CUDA spells it
  attach_cuda_devices(t, {vmd});
  EXPECT_EQ(t.gpus[3].cuda_ordinal, 0);
  EXPECT_EQ(t.gpu_by_bus_id("00010000:0b:00.0"), &t.gpus[4]);
}

TEST(Topology, BusIdsAreNormalized) {
  EXPECT_EQ(normalize_bus_id("0000:3B:00.0"), "0000:3b:00.0");
  EXPECT_EQ(normalize_bus_id("00000000:3B:00.0"), "0000:3b:00.0");
  EXPECT_EQ(normalize_bus_id("0001:3b:00.0"), "0001:3b:00.0");
  // 32-bit domains (VMD, Hyper-V): 8 digits from CUDA and nvidia-smi, Linux's spelling in sysfs.
  EXPECT_EQ(normalize_bus_id("00010000:E1:00.0"), "10000:e1:00.0");
  EXPECT_EQ(normalize_bus_id("10000:e1:00.0"), "10000:e1:00.0");
  EXPECT_EQ(normalize_bus_id("47505500:01:00.0"), "47505500:01:00.0");
  EXPECT_TRUE(is_bus_id("00010000:e1:00.0"));
  EXPECT_TRUE(is_bus_id("0000:3b:00.0"));
  EXPECT_FALSE(is_bus_id("0000:3b:00"));
  EXPECT_FALSE(is_bus_id("000000000:3b:00.0"));
  EXPECT_TRUE(is_nvidia_gpu(0x10de, 0x0300));
  EXPECT_TRUE(is_nvidia_gpu(0x10de, 0x0302));
  EXPECT_FALSE(is_nvidia_gpu(0x10de, 0x0403));  // the GPU's audio function
  EXPECT_FALSE(is_nvidia_gpu(0x10de, 0x0680));  // NVSwitch
  EXPECT_FALSE(is_nvidia_gpu(0x1002, 0x0300));
}

TEST(Topology, BadXmlFilesAreUsageErrors) {
  try {
    HwlocTopology::load_xml("/nonexistent/rig.xml", "--xml");
    FAIL() << "a missing file loaded";
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("--xml '/nonexistent/rig.xml'"), std::string::npos);
  }
  const std::filesystem::path garbage =
      std::filesystem::temp_directory_path() / ("h2d_garbage_" + std::to_string(::getpid()));
  std::ofstream(garbage) << "not xml at all\n";
  try {
    HwlocTopology::load_xml(garbage.string(), "HWLOC_XMLFILE");
    FAIL() << "garbage loaded";
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("not an hwloc XML topology"), std::string::npos);
    EXPECT_NE(std::string(error.what()).find("HWLOC_XMLFILE"), std::string::npos);
  }
  std::filesystem::remove(garbage);
  EXPECT_THROW(HwlocTopology::load_xml(std::filesystem::temp_directory_path().string(), "--xml"),
               UsageError);
}

TEST(Topology, ThisMachineLoads) {
  if (std::getenv("HWLOC_XMLFILE") != nullptr) {
    GTEST_SKIP() << "HWLOC_XMLFILE is set: the topology is not this machine's";
  }
  const Topology t = build_topology(HwlocTopology::load_system());
  EXPECT_TRUE(t.this_system);
  EXPECT_GE(t.numa_nodes.size(), 1u);
  for (const GpuTopology& gpu : t.gpus) {
    EXPECT_EQ(t.nodes[static_cast<std::size_t>(gpu.node)].vendor_id, 0x10deu);
  }
}

TEST(TopologyReport, JsonCarriesLinksGroupsAndCeilings) {
  const nlohmann::json j = topology_to_json(load("six_gpu_gen3_two_switches.xml"));
  ASSERT_EQ(j["gpus"].size(), 6u);
  EXPECT_EQ(j["gpus"][4]["link"]["width"], 8);
  EXPECT_EQ(j["gpus"][2]["link"]["gen"], 3);  // the idle GPU: rated at what it reaches under load
  EXPECT_EQ(j["gpus"][2]["link"]["current_gen"], 1);
  EXPECT_EQ(j["gpus"][4]["link"]["max_width"], 16);
  EXPECT_NEAR(j["gpus"][4]["link"]["ceiling_gb_per_s"].get<double>(),
              link_ceiling({3, 8}, 256).payload_gb_per_s, 1e-9);
  EXPECT_TRUE(j["gpus"][0]["cuda_ordinal"].is_null());
  EXPECT_EQ(j["gpus"][0]["path"][1]["role"], "switch_upstream");
  EXPECT_EQ(j["uplink_groups"][1]["gpus"], (std::vector<int>{3, 4, 5}));
  EXPECT_NEAR(j["uplink_groups"][0]["per_gpu_gb_per_s"].get<double>(), gen3_x16() / 3, 1e-6);
  EXPECT_NEAR(j["all_gpus_gb_per_s"].get<double>(), 2 * gen3_x16(), 1e-6);
  EXPECT_EQ(j["warnings"].size(), 2u);
  EXPECT_EQ(j["this_system"], false);
}

TEST(TopologyReport, TextShowsTheTreeGroupsAndWarnings) {
  const std::string text = render_topology_text(load("six_gpu_gen3_two_switches.xml"), false);
  for (const char* expected :
       {"NUMA node 0: CPUs 0-7, 64.0 GiB", "root port 0000:00:02.0 [8086:6f04]",
        "switch 0000:02:00.0 [10b5:8796]  uplink gen3 x16, ceiling 14.61 GB/s; shared by GPU 0, "
        "GPU 1, GPU 2",
        "GPU 4  0000:0b:00.0  GP102 [GeForce GTX 1080 Ti]  gen3 x8 (max gen3 x16), ceiling 7.31",
        "gen3 x16 (read as gen1 x16), ceiling 14.61", "all 6 GPUs at once: 29.22 GB/s together",
        "-> 14.61 GB/s together, 4.87 each", "warnings:", "trained at x8"}) {
    EXPECT_NE(text.find(expected), std::string::npos) << "missing: " << expected << "\n" << text;
  }
  EXPECT_EQ(text.find("NVMe"), std::string::npos);  // not without --all
  EXPECT_NE(render_topology_text(load("six_gpu_gen3_two_switches.xml"), true).find("NVMe"),
            std::string::npos);
}

}  // namespace
}  // namespace h2d
