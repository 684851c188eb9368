#include <gtest/gtest.h>

#include <map>
#include <string>

#include "sim/runtime/config.hpp"
#include "sim/runtime/faults.hpp"

namespace h2d::sim {
namespace {

Config parse(const std::map<std::string, std::string>& values) {
  return parse_config([&](const char* name) -> const char* {
    const auto found = values.find(name);
    return found == values.end() ? nullptr : found->second.c_str();
  });
}

std::string error_of(const std::map<std::string, std::string>& values) {
  try {
    parse(values);
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "";
}

TEST(SimConfig, DefaultsAreTheDocumentedOnes) {
  const Config config = parse({});
  EXPECT_EQ(config.devices, 1);
  EXPECT_EQ(config.copy_engines, 2);
  EXPECT_DOUBLE_EQ(config.h2d_bytes_per_s, 4e9);
  EXPECT_DOUBLE_EQ(config.d2h_bytes_per_s, 4e9);
  EXPECT_DOUBLE_EQ(config.pageable_factor, 0.5);
  EXPECT_EQ(config.latency_ns, 10'000u);
  EXPECT_EQ(config.device_memory_bytes, 8ull << 30);
  EXPECT_EQ(config.multiprocessors, 4);
  EXPECT_EQ(config.cc_major, 9);
  EXPECT_EQ(config.peer, "none");
  EXPECT_FALSE(config.launch_blocking);
}

TEST(SimConfig, ReadsEveryVariable) {
  const Config config = parse({{"H2D_SIM_DEVICES", "4"},
                               {"H2D_SIM_COPY_ENGINES", "1"},
                               {"H2D_SIM_H2D_GBPS", "12.5"},
                               {"H2D_SIM_D2H_GBPS", "3"},
                               {"H2D_SIM_PAGEABLE_FACTOR", "0.25"},
                               {"H2D_SIM_LATENCY_US", "0"},
                               {"H2D_SIM_DEVICE_MEMORY", "512MiB"},
                               {"H2D_SIM_SMS", "80"},
                               {"H2D_SIM_COMPUTE_CAPABILITY", "8.6"},
                               {"H2D_SIM_PEER", "0-1,2-3"},
                               {"H2D_SIM_UPLINK_GBPS", "10"},
                               {"CUDA_LAUNCH_BLOCKING", "1"}});
  EXPECT_EQ(config.devices, 4);
  EXPECT_TRUE(config.devices_given);
  EXPECT_EQ(config.copy_engines, 1);
  EXPECT_DOUBLE_EQ(config.h2d_bytes_per_s, 12.5e9);
  EXPECT_DOUBLE_EQ(config.d2h_bytes_per_s, 3e9);
  EXPECT_DOUBLE_EQ(config.pageable_factor, 0.25);
  EXPECT_EQ(config.latency_ns, 0u);
  EXPECT_EQ(config.device_memory_bytes, 512ull << 20);
  EXPECT_EQ(config.multiprocessors, 80);
  EXPECT_EQ(config.cc_major, 8);
  EXPECT_EQ(config.cc_minor, 6);
  EXPECT_EQ(config.peer, "0-1,2-3");
  EXPECT_DOUBLE_EQ(config.uplink_bytes_per_s, 10e9);
  EXPECT_TRUE(config.launch_blocking);
}

TEST(SimConfig, BadValuesNameTheVariableAndWhatIsValid) {
  EXPECT_EQ(error_of({{"H2D_SIM_COPY_ENGINES", "3"}}),
            "h2dbench sim: H2D_SIM_COPY_ENGINES='3' is not valid; 1 or 2");
  EXPECT_NE(error_of({{"H2D_SIM_H2D_GBPS", "fast"}}).find("H2D_SIM_H2D_GBPS"), std::string::npos);
  EXPECT_NE(error_of({{"H2D_SIM_H2D_GBPS", "-1"}}), "");
  EXPECT_NE(error_of({{"H2D_SIM_PAGEABLE_FACTOR", "1.5"}}), "");
  EXPECT_NE(error_of({{"H2D_SIM_DEVICE_MEMORY", "8GB"}}), "");
  EXPECT_NE(error_of({{"H2D_SIM_PEER", "0-0"}}), "");
  EXPECT_NE(error_of({{"H2D_SIM_PEER", "some"}}), "");
  EXPECT_NE(error_of({{"H2D_SIM_DEVICES", "2x"}}), "");
  EXPECT_NE(error_of({{"CUDA_LAUNCH_BLOCKING", "yes"}}), "");
}

TEST(SimFaults, ParsesEachKindOfRule) {
  const auto rules = parse_faults(
      "cudaMalloc#3=cudaErrorMemoryAllocation,corrupt=cudaMemcpyAsync#2,"
      "stall=kernel:busy_kernel#1:5s,stall=cudaMemcpyAsync#4:250ms");
  ASSERT_EQ(rules.size(), 4u);
  EXPECT_EQ(rules[0].action, FaultRule::Action::error);
  EXPECT_EQ(rules[0].target, "cudaMalloc");
  EXPECT_EQ(rules[0].call, 3u);
  EXPECT_EQ(rules[0].error, cudaErrorMemoryAllocation);
  EXPECT_EQ(rules[1].action, FaultRule::Action::corrupt);
  EXPECT_EQ(rules[1].target, "cudaMemcpyAsync");
  EXPECT_EQ(rules[2].target, "kernel:busy_kernel");
  EXPECT_EQ(rules[2].stall_ns, 5'000'000'000u);
  EXPECT_EQ(rules[3].stall_ns, 250'000'000u);
}

TEST(SimFaults, BadRulesAreOneLineNamingTheVariable) {
  for (const char* bad :
       {"cudaMalloc#0=cudaErrorMemoryAllocation", "cudaMalloc#3=cudaErrorNoSuchThing",
        "cudaMalloc=cudaErrorMemoryAllocation", "corrupt=cudaMalloc#1", "stall=cudaMemcpy#1",
        "stall=cudaMemcpy#1:5 parsecs", "malloc#1=cudaErrorMemoryAllocation", "x", ",",
        "cudaMalloc#1=cudaSuccess", "cudaMallocc#1=cudaErrorMemoryAllocation",
        "corrupt=cudaMemcpy#+", "corrupt=cudaMemcpy#0+", "corrupt=cudaMemcpy#2++"}) {
    try {
      parse_faults(bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const ConfigError& error) {
      const std::string line = error.what();
      EXPECT_NE(line.find("H2D_SIM_FAULTS"), std::string::npos) << line;
      EXPECT_EQ(line.find('\n'), std::string::npos) << line;
    }
  }
}

TEST(SimFaults, CountsCallsPerTarget) {
  FaultPlan plan(parse_faults("cudaMalloc#2=cudaErrorMemoryAllocation,corrupt=cudaMemcpy#1"));
  EXPECT_EQ(plan.on_call("cudaMalloc").error, cudaSuccess);
  EXPECT_TRUE(plan.on_call("cudaMemcpy").corrupt);
  EXPECT_EQ(plan.on_call("cudaMalloc").error, cudaErrorMemoryAllocation);
  EXPECT_EQ(plan.on_call("cudaMalloc").error, cudaSuccess);
  EXPECT_FALSE(plan.on_call("cudaMemcpy").corrupt);
}

TEST(SimFaults, APlusAppliesToTheNthCallAndEveryLaterOne) {
  FaultPlan plan(parse_faults("corrupt=cudaMemcpyAsync#3+,cudaMalloc#2=cudaErrorMemoryAllocation"));
  EXPECT_FALSE(plan.on_call("cudaMemcpyAsync").corrupt);
  EXPECT_FALSE(plan.on_call("cudaMemcpyAsync").corrupt);
  for (int later = 0; later < 5; ++later) {
    EXPECT_TRUE(plan.on_call("cudaMemcpyAsync").corrupt) << "call " << 3 + later;
  }
  EXPECT_EQ(plan.on_call("cudaMalloc").error, cudaSuccess);
  EXPECT_EQ(plan.on_call("cudaMalloc").error, cudaErrorMemoryAllocation);
  EXPECT_EQ(plan.on_call("cudaMalloc").error, cudaSuccess) << "without +, only the Nth call";
}

}  // namespace
}  // namespace h2d::sim
