// The multi/* families: which cases they make for a selection, and what they say when they cannot
// run. Host-only: the plans name GPUs, nothing is measured.

#include <gtest/gtest.h>

#include <algorithm>

#include "benchmarks/commands/suite.hpp"
#include "harness/cuda/host_memory.hpp"
#include "harness/suite/case_runner.hpp"
#include "harness/suite/case_skip.hpp"
#include "harness/suite/family.hpp"
#include "harness/suite/run_topology.hpp"
#include "harness/topology/topology.hpp"

namespace h2d {
namespace {

const Family& family(const std::string& name) {
  static const std::vector<Family> families = registered_families();
  const auto found = std::find_if(families.begin(), families.end(),
                                  [&](const Family& f) { return f.name == name; });
  if (found == families.end()) {
    throw std::runtime_error("family not registered: " + name);
  }
  return *found;
}

RunPlan plan_with(int gpus, Preset preset) {
  RunPlan plan;
  plan.preset = preset;
  for (int ordinal = 0; ordinal < gpus; ++ordinal) {
    DeviceInfo device;
    device.ordinal = ordinal;
    device.pci_bus_id = "0000:f" + std::to_string(ordinal) + ":00.0";  // on no topology here
    plan.devices.push_back(device);
  }
  return plan;
}

std::vector<std::string> names(const std::vector<BenchmarkCase>& cases) {
  std::vector<std::string> list;
  for (const BenchmarkCase& c : cases) {
    list.push_back(c.name);
  }
  return list;
}

// D2H into write-combined memory was verified by CPU reads of uncached memory: seconds per GiB.
TEST(MemoryFamily, NoDeviceToHostCopiesIntoWriteCombinedMemory) {
  int h2d_write_combined = 0;
  for (const std::string& name : names(family("h2d/memory").cases(plan_with(1, Preset::quick)))) {
    EXPECT_EQ(name.find("dir=d2h/kind=write_combined"), std::string::npos) << name;
    h2d_write_combined += name.find("dir=h2d/kind=write_combined") != std::string::npos;
  }
  EXPECT_GT(h2d_write_combined, 0);
  EXPECT_FALSE(receives_device_copies(HostKind::write_combined));
  EXPECT_TRUE(receives_device_copies(HostKind::pinned));
}

TEST(MultiFamilies, AreRegisteredAsGpuFamilies) {
  for (const char* name : {"multi/h2d_concurrent", "multi/scatter", "multi/numa"}) {
    EXPECT_TRUE(family(name).needs_gpu) << name;
  }
}

TEST(MultiFamilies, OneGpuRunsAloneAndSaysWhatItSkipped) {
  const RunPlan plan = plan_with(1, Preset::quick);
  EXPECT_EQ(names(family("multi/h2d_concurrent").cases(plan)),
            (std::vector<std::string>{"multi/h2d_concurrent/gpus=0/set=first/bytes=64MiB",
                                      "multi/h2d_concurrent/gpus=several"}));
  EXPECT_EQ(names(family("multi/scatter").cases(plan)),
            (std::vector<std::string>{"multi/scatter/gpus=several"}));
  const std::vector<std::string> numa = names(family("multi/numa").cases(plan));
  // Counted as the family counts: nodes with memory (one with CPUs only holds no buffer), on
  // this machine.
  const Topology& topology = run_topology();
  const auto memory_nodes =
      std::count_if(topology.numa_nodes.begin(), topology.numa_nodes.end(),
                    [](const NumaNodeInfo& node) { return node.memory_bytes > 0; });
  if (!topology.this_system || memory_nodes < 2) {
    EXPECT_EQ(numa, (std::vector<std::string>{"multi/numa/node=remote"}));
  } else {
    for (const std::string& name : numa) {
      EXPECT_NE(name.find("multi/numa/gpu=0/dir=h2d/node="), std::string::npos) << name;
    }
  }
}

TEST(MultiFamilies, SeveralGpusScaleAndScatter) {
  const std::vector<std::string> quick =
      names(family("multi/h2d_concurrent").cases(plan_with(3, Preset::quick)));
  EXPECT_EQ(quick, (std::vector<std::string>{"multi/h2d_concurrent/gpus=0/set=first/bytes=64MiB",
                                             "multi/h2d_concurrent/gpus=0,1,2/set=first/"
                                             "bytes=64MiB",
                                             "multi/h2d_concurrent/gpus=0,1,2/set=first/dir=both/"
                                             "bytes=64MiB"}));
  const auto standard = family("multi/h2d_concurrent").cases(plan_with(3, Preset::standard));
  // k = 1, 2, 3 at 4, 16, 64 and 256 MiB, and both directions at once at 256 MiB
  EXPECT_EQ(standard.size(), 15u);
  EXPECT_EQ(standard[4].name, "multi/h2d_concurrent/gpus=0/set=first/dir=both/bytes=256MiB");
  EXPECT_EQ(standard[5].name, "multi/h2d_concurrent/gpus=0,1/set=first/bytes=4MiB");
  EXPECT_EQ(standard[5].params.at("k"), 2);
  const std::vector<std::string> scatter =
      names(family("multi/scatter").cases(plan_with(3, Preset::quick)));
  EXPECT_EQ(scatter, (std::vector<std::string>{"multi/scatter/gpus=0,1,2/route=direct/batch=64MiB",
                                               "multi/scatter/gpus=0,1,2/route=via_gpu0/"
                                               "batch=64MiB"}));
}

TEST(MultiFamilies, ASkippedCaseIsRecordedWithItsReason) {
  SuiteSelection selection;
  selection.cases.push_back(skipped_case("multi/test/gpus=several", "needs two GPUs; one here"));
  RunOptions options;
  options.preset = Preset::quick;
  const SuiteRun run = run_selection(
      selection, options, case_context(options, RunPlan{}, selection.cases.size()), "h2d_tests");
  const nlohmann::json& report = run.report;
  ASSERT_EQ(report["benchmarks"].size(), 1u);
  EXPECT_EQ(report["benchmarks"][0]["error_occurred"], true);
  EXPECT_EQ(report["benchmarks"][0]["error_message"], "needs two GPUs; one here");
  const CaseOutcomes& outcomes = run.outcomes;
  ASSERT_EQ(outcomes.skipped.size(), 1u);
  EXPECT_EQ(outcomes.skipped[0].name, "multi/test/gpus=several");
  EXPECT_TRUE(outcomes.failed.empty());
}

}  // namespace
}  // namespace h2d
