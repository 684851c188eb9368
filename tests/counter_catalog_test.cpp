// Every counter a case writes is declared once, with its unit and meaning (counter_catalog), and
// set_counter refuses any other.

#include "harness/core/counter_catalog.hpp"

#include <benchmark/benchmark.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "harness/measure/counters.hpp"
#include "harness/suite/family.hpp"
#include "tests/process_runner.hpp"

namespace h2d {
namespace {

TEST(CounterCatalog, EachNameOnceSortedWithAMeaning) {
  std::set<std::string> names;
  std::string previous;
  for (const CounterDeclaration& counter : declared_counters()) {
    EXPECT_TRUE(names.insert(counter.name).second) << counter.name << " declared twice";
    EXPECT_LT(previous, counter.name) << "sorted by name";
    EXPECT_FALSE(counter.meaning.empty()) << counter.name;
    previous = counter.name;
  }
}

TEST(CounterCatalog, GpuNumbersMatchTheirPatternOnly) {
  ASSERT_NE(find_declared_counter("gpu0_GB_per_s"), nullptr);
  EXPECT_EQ(find_declared_counter("gpu12_GB_per_s")->name, "gpu<N>_GB_per_s");
  EXPECT_EQ(find_declared_counter("gpu_GB_per_s"), nullptr) << "no digits";
  EXPECT_EQ(find_declared_counter("gpux_GB_per_s"), nullptr);
  EXPECT_EQ(find_declared_counter("GB_per_s")->unit, "GB/s");
  EXPECT_EQ(find_declared_counter("frames_per_s"), nullptr);
}

// Every literal name a case hands set_counter, in the sources, is declared: a name the catalog
// lacks would fail its case at run time, on a machine this test may never see (a GPU route).
TEST(CounterCatalog, EveryNameTheSourcesWriteIsDeclared) {
  const std::regex written("set_counter\\(\\s*[a-z_]+,\\s*\"([A-Za-z0-9_]+)\"");
  std::size_t found = 0;
  for (const char* folder : {"benchmarks", "harness"}) {
    for (const auto& entry :
         std::filesystem::recursive_directory_iterator(testing::source_dir() + "/" + folder)) {
      if (entry.path().extension() != ".cpp") {
        continue;
      }
      std::ifstream file(entry.path());
      std::stringstream text;
      text << file.rdbuf();
      const std::string source = text.str();
      for (std::sregex_iterator it(source.begin(), source.end(), written), end; it != end; ++it) {
        ++found;
        EXPECT_NE(find_declared_counter((*it)[1].str()), nullptr)
            << (*it)[1] << " written in " << entry.path() << " is not declared";
      }
    }
  }
  EXPECT_GT(found, 100u) << "the sources write their counters through set_counter";
}

// A case's numeric parameters become counters too: every family's, on a rig of two GPUs, at every
// preset, is declared.
TEST(CounterCatalog, EveryCaseParameterIsDeclared) {
  DeviceInfo gpu;
  gpu.name = "test GPU";
  gpu.copy_engines = 2;
  gpu.total_memory = std::size_t{80} << 30;
  gpu.multiprocessors = 132;
  gpu.can_map_host_memory = true;
  DeviceInfo second = gpu;
  second.ordinal = 1;
  std::size_t params = 0;
  for (Preset preset : {Preset::quick, Preset::standard, Preset::full}) {
    const RunPlan plan{preset, {gpu, second}, ""};
    for (const Family& family : registered_families()) {
      for (const BenchmarkCase& bench_case : family.cases(plan)) {
        for (const auto& [key, value] : bench_case.params) {
          ++params;
          EXPECT_NE(find_declared_counter(key), nullptr) << key << " of " << bench_case.name;
        }
      }
    }
  }
  EXPECT_GT(params, 0u);
}

TEST(SetCounter, WritesADeclaredCounterAndRefusesAnyOther) {
  bool refused = false;
  double written = -1;
  benchmark::ClearRegisteredBenchmarks();
  benchmark::RegisterBenchmark("set_counter_test", [&](benchmark::State& state) {
    for (auto _ : state) {
    }
    set_counter(state, "GB_per_s", 12.5);
    written = state.counters["GB_per_s"];
    try {
      set_counter(state, "frames_per_s", 1);
    } catch (const std::logic_error& error) {
      refused = std::string(error.what()).find("frames_per_s") != std::string::npos;
    }
  })->Iterations(1);
  struct Quiet : benchmark::BenchmarkReporter {
    bool ReportContext(const Context&) override { return true; }
    void ReportRuns(const std::vector<Run>&) override {}
  } quiet;
  benchmark::RunSpecifiedBenchmarks(&quiet);
  benchmark::ClearRegisteredBenchmarks();
  EXPECT_DOUBLE_EQ(written, 12.5);
  EXPECT_TRUE(refused) << "an undeclared counter names itself in the error";
}

}  // namespace
}  // namespace h2d
