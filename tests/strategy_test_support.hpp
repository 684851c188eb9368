#pragma once

// Shared by the tests of the transfer-strategy families (streams, staging, pin_cost, zero_copy).

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/cuda/device.hpp"
#include "harness/suite/family.hpp"
#include "tests/process_runner.hpp"
#include "tests/quick_run.hpp"

#include "tests/gpu_test_support.hpp"

namespace h2d::test {

// A GPU as discovery would describe an H200, for building case lists without one.
inline DeviceInfo fake_gpu(int ordinal = 0) {
  DeviceInfo gpu;
  gpu.ordinal = ordinal;
  gpu.name = "test GPU";
  gpu.copy_engines = 3;
  gpu.multiprocessors = 132;
  gpu.can_map_host_memory = true;
  gpu.total_memory = std::size_t{141} << 30;
  return gpu;
}

// The cases a registered family would run with `preset` on `gpus` fake GPUs.
inline std::vector<BenchmarkCase> family_cases(const std::string& family, Preset preset,
                                               int gpus = 1) {
  RunPlan plan;
  plan.preset = preset;
  for (int i = 0; i < gpus; ++i) {
    plan.devices.push_back(fake_gpu(i));
  }
  for (const Family& registered : registered_families()) {
    if (registered.name == family) {
      return registered.cases(plan);
    }
  }
  throw std::runtime_error("family not registered: " + family);
}

inline const Family& find_family(const std::string& name) {
  static const std::vector<Family> families = registered_families();
  for (const Family& family : families) {
    if (family.name == name) {
      return family;
    }
  }
  throw std::runtime_error("family not registered: " + name);
}

// Runs `h2dbench run --preset quick --filter FILTER` and returns its report; fails the test when
// the command fails.
inline nlohmann::json run_quick(const std::string& filter, const std::string& tag) {
  const h2d_test::QuickRun run =
      h2d_test::run_quick("h2d_" + tag, "--filter " + h2d_test::shell_quote(filter));
  EXPECT_EQ(run.process.exit_code, 0) << "--filter " << filter << "\n" << run.process.output;
  if (!run.report.is_object()) {
    ADD_FAILURE() << "no report written with --filter " << filter << "\n" << run.process.output;
    return nlohmann::json::object();
  }
  return run.report;
}

}  // namespace h2d::test
