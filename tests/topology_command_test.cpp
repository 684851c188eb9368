// `h2dbench topology` end to end: the binary on fixture rigs, on this machine, and on bad input.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/topology_fixture.hpp"

namespace h2d {
namespace {

struct Result {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

Result run(const std::string& arguments, const std::string& environment = "") {
  const std::string command =
      environment + " '" + std::string(H2D_BINARY_PATH) + "' " + arguments + " 2>&1";
  Result result;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) {
    return result;
  }
  std::array<char, 4096> buffer{};
  std::size_t got = 0;
  while ((got = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) {
    result.output.append(buffer.data(), got);
  }
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(TopologyCommand, DescribesTheSixGpuRig) {
  const Result r =
      run("topology --xml '" + testing::fixture_path("six_gpu_gen3_two_switches.xml") + "'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "(hwloc XML, not this machine)")) << r.output;
  EXPECT_TRUE(contains(r.output, "shared by GPU 0, GPU 1, GPU 2")) << r.output;
  EXPECT_TRUE(contains(r.output, "GPU 4  0000:0b:00.0")) << r.output;
  EXPECT_TRUE(contains(r.output, "all 6 GPUs at once: 29.22 GB/s together")) << r.output;
  EXPECT_TRUE(contains(r.output, "trained at x8 although both ends support x16")) << r.output;
  EXPECT_FALSE(contains(r.output, "CUDA:")) << "another machine's GPUs are not this one's";
}

TEST(TopologyCommand, JsonForMachines) {
  const Result r =
      run("topology --json --xml=" + testing::fixture_path("dual_socket_eight_gpu_gen4.xml"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const nlohmann::json j = nlohmann::json::parse(r.output);
  ASSERT_EQ(j["gpus"].size(), 8u);
  EXPECT_EQ(j["gpus"][5]["numa_node"], 1);
  EXPECT_EQ(j["uplink_groups"].size(), 4u);
  EXPECT_NEAR(j["all_gpus_gb_per_s"].get<double>(), 4 * link_ceiling({4, 16}, 256).payload_gb_per_s,
              1e-6);
}

TEST(TopologyCommand, ReadsHwlocXmlFile) {
  const std::string path = testing::fixture_path("single_gpu_gen5.xml");
  const Result r = run("topology --json", "HWLOC_XMLFILE='" + path + "'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const nlohmann::json j = nlohmann::json::parse(r.output);
  EXPECT_EQ(j["source"], path);
  ASSERT_EQ(j["gpus"].size(), 1u);
  EXPECT_EQ(j["gpus"][0]["link"]["rated_gen"], 5);
}

TEST(TopologyCommand, BadInputIsAClearUsageError) {
  Result r = run("topology --xml /nonexistent/rig.xml");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.output, "h2dbench: error: --xml '/nonexistent/rig.xml': No such file"))
      << r.output;
  const std::filesystem::path garbage =
      std::filesystem::temp_directory_path() / ("h2d_cmd_garbage_" + std::to_string(::getpid()));
  std::ofstream(garbage) << "<html>not a topology</html>\n";
  r = run("topology --xml " + garbage.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.output, "is not an hwloc XML topology")) << r.output;
  r = run("topology", "HWLOC_XMLFILE=" + garbage.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.output, "h2dbench: error: HWLOC_XMLFILE")) << r.output;
  std::filesystem::remove(garbage);
  r = run("topology --xml");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.output, "--xml needs a file name")) << r.output;
  r = run("topology --bogus");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.output, "unknown topology option '--bogus'")) << r.output;
}

TEST(TopologyCommand, ThisMachineAndItsExportRoundTrip) {
  const Result here = run("topology", "env -u HWLOC_XMLFILE");
  ASSERT_EQ(here.exit_code, 0) << here.output;
  EXPECT_TRUE(contains(here.output, "topology of this machine")) << here.output;
  EXPECT_TRUE(contains(here.output, "CUDA: ")) << here.output;
  if (!contains(here.output, " NVIDIA GPU")) {
    EXPECT_TRUE(contains(here.output, "No NVIDIA GPU on this machine's PCI bus")) << here.output;
  }
  const std::filesystem::path exported = std::filesystem::temp_directory_path() /
                                         ("h2d_export_" + std::to_string(::getpid()) + ".xml");
  const Result live = run("topology --json --export " + exported.string(), "env -u HWLOC_XMLFILE");
  ASSERT_EQ(live.exit_code, 0) << live.output;
  const Result back = run("topology --json --xml " + exported.string());
  std::filesystem::remove(exported);
  ASSERT_EQ(back.exit_code, 0) << back.output;
  const nlohmann::json before = nlohmann::json::parse(live.output);
  const nlohmann::json after = nlohmann::json::parse(back.output);
  EXPECT_EQ(after["gpus"].size(), before["gpus"].size());
  EXPECT_EQ(after["pci_devices"], before["pci_devices"]);
  EXPECT_EQ(after["numa_nodes"].size(), before["numa_nodes"].size());
  for (std::size_t i = 0; i < before["gpus"].size(); ++i) {
    EXPECT_EQ(after["gpus"][i]["link"]["ceiling_gb_per_s"],
              before["gpus"][i]["link"]["ceiling_gb_per_s"]);
  }
}

}  // namespace
}  // namespace h2d
