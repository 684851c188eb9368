// `h2dbench topology` end to end: the binary on fixture rigs, on this machine, and on bad input.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/h2dbench_process.hpp"
#include "tests/topology_fixture.hpp"

namespace h2d {
namespace {

using h2d_test::run_h2dbench;
using h2d_test::shell_quote;

h2d_test::ProcessResult run(const std::string& arguments, const std::string& environment = "") {
  return run_h2dbench(arguments, environment);
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(TopologyCommand, DescribesTheSixGpuRig) {
  const auto r =
      run("topology --xml " + shell_quote(testing::fixture_path("six_gpu_gen3_two_switches.xml")));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "(hwloc XML, not this machine)")) << r.output;
  EXPECT_TRUE(contains(r.output, "shared by GPU 0, GPU 1, GPU 2")) << r.output;
  EXPECT_TRUE(contains(r.output, "GPU 4  0000:0b:00.0")) << r.output;
  EXPECT_TRUE(contains(r.output, "all 6 GPUs at once: 29.22 GB/s together")) << r.output;
  EXPECT_TRUE(contains(r.output, "trained at x8 although both ends support x16")) << r.output;
  EXPECT_FALSE(contains(r.output, "CUDA:")) << "another machine's GPUs are not this one's";
}

TEST(TopologyCommand, JsonForMachines) {
  const auto r = run("topology --json --xml=" +
                     shell_quote(testing::fixture_path("dual_socket_eight_gpu_gen4.xml")));
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
  const auto r = run("topology --json", "HWLOC_XMLFILE=" + shell_quote(path));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const nlohmann::json j = nlohmann::json::parse(r.output);
  EXPECT_EQ(j["source"], path);
  ASSERT_EQ(j["gpus"].size(), 1u);
  EXPECT_EQ(j["gpus"][0]["link"]["gen"], 5);
}

TEST(TopologyCommand, BadInputIsAClearUsageError) {
  auto r = run("topology --xml /nonexistent/rig.xml");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.output, "h2dbench: error: --xml '/nonexistent/rig.xml': No such file"))
      << r.output;
  const std::filesystem::path garbage = h2d_test::scratch_folder("topology_garbage") / "rig.xml";
  std::ofstream(garbage) << "<html>not a topology</html>\n";
  r = run("topology --xml " + shell_quote(garbage.string()));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.output, "is not an hwloc XML topology")) << r.output;
  r = run("topology", "HWLOC_XMLFILE=" + shell_quote(garbage.string()));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.output, "h2dbench: error: HWLOC_XMLFILE")) << r.output;
  std::filesystem::remove_all(garbage.parent_path());
  r = run("topology --xml");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.output, "--xml needs a value")) << r.output;
  r = run("topology --bogus");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.output, "unknown option '--bogus' for topology")) << r.output;
}

TEST(TopologyCommand, ThisMachineAndItsExportRoundTrip) {
  const auto here = run("topology", "env -u HWLOC_XMLFILE");
  ASSERT_EQ(here.exit_code, 0) << here.output;
  EXPECT_TRUE(contains(here.output, "topology of this machine")) << here.output;
  EXPECT_TRUE(contains(here.output, "CUDA: ")) << here.output;
  if (!contains(here.output, " NVIDIA GPU")) {
    EXPECT_TRUE(contains(here.output, "No NVIDIA GPU on this machine's PCI bus")) << here.output;
  }
  const std::filesystem::path folder = h2d_test::scratch_folder("topology_export");
  const std::string exported = shell_quote((folder / "here.xml").string());
  const auto live = run("topology --json --export " + exported, "env -u HWLOC_XMLFILE");
  ASSERT_EQ(live.exit_code, 0) << live.output;
  const auto back = run("topology --json --xml " + exported);
  std::filesystem::remove_all(folder);
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

namespace h2d {
namespace {

// A run's report carries the topology, from HWLOC_XMLFILE when it is set; a bad file stops the run
// before anything is measured.
TEST(TopologyInReport, RunWritesTheTopologyItUsed) {
  const std::filesystem::path folder = h2d_test::scratch_folder("topology_report");
  const std::string out = shell_quote((folder / "report.json").string());
  const std::string rig =
      "HWLOC_XMLFILE=" + shell_quote(testing::fixture_path("six_gpu_gen3_two_switches.xml"));
  const auto ran = run_h2dbench(
      "run --preset quick --filter '^host/memcpy/threads=1/bytes=1MiB$' --out " + out, rig);
  ASSERT_EQ(ran.exit_code, 0) << ran.output;
  std::ifstream file(folder / "report.json");
  const nlohmann::json report = nlohmann::json::parse(file);
  const nlohmann::json& topology = report["h2dbench"]["topology"];
  EXPECT_EQ(topology["gpus"].size(), 6u);
  EXPECT_EQ(topology["uplink_groups"].size(), 2u);
  for (const auto& entry : report["benchmarks"]) {
    EXPECT_FALSE(entry.contains("link_pct")) << "host families are not bound by a GPU's link";
  }
  const auto refused = run_h2dbench("run --preset quick --out " + out,
                                    "HWLOC_XMLFILE=" + shell_quote((folder / "none.xml").string()));
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_TRUE(contains(refused.output, "h2dbench: error: HWLOC_XMLFILE")) << refused.output;
  EXPECT_FALSE(contains(refused.output, "host/memcpy")) << "nothing is measured first";
  std::filesystem::remove_all(folder);
}

}  // namespace
}  // namespace h2d
