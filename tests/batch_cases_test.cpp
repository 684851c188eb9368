// Which cases the batch families generate per preset: computed without a GPU from a plan that
// names one.

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "harness/suite/family.hpp"

namespace h2d {
namespace {

std::vector<std::string> case_names(const std::string& family, Preset preset, int gpus = 1) {
  RunPlan plan;
  plan.preset = preset;
  for (int ordinal = 0; ordinal < gpus; ++ordinal) {
    DeviceInfo gpu;
    gpu.ordinal = ordinal;
    plan.devices.push_back(gpu);
  }
  for (const Family& candidate : registered_families()) {
    if (candidate.name == family) {
      std::vector<std::string> names;
      for (const BenchmarkCase& bench_case : candidate.cases(plan)) {
        names.push_back(bench_case.name);
      }
      return names;
    }
  }
  ADD_FAILURE() << "no family " << family;
  return {};
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

TEST(BatchCases, QuickRunsEveryDistinctPolicyAtBatchOneAndSixteen) {
  const auto names = case_names("h2d/batch", Preset::quick);
  // A batch size, train: single 3 policies, tuple 4, list 4 (per_member is what pin=requested
  // does), custom 1 (pin=requested, the silent no-pin); predict: single 3, tuple 3 (one buffer:
  // packing is pinning), list 3 (batch 1) or 4, custom 1; and one train batch in one
  // cudaMemcpyBatchAsync (copy=batched).
  EXPECT_EQ(names.size(), 2 * 12u + (10u + 11) + 1);
  EXPECT_TRUE(
      contains(names, "h2d/batch/task=train/layout=list/pin=requested/copy=batched/batch=16"));
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size());
  EXPECT_TRUE(contains(names, "h2d/batch/task=train/layout=tuple/pin=requested/batch=16"));
  EXPECT_TRUE(contains(names, "h2d/batch/task=predict/layout=list/pin=packed/batch=16"));
  EXPECT_FALSE(contains(names, "h2d/batch/task=predict/layout=list/pin=packed/batch=1"));
  EXPECT_FALSE(contains(names, "h2d/batch/task=train/layout=single/pin=per_member/batch=16"));
  EXPECT_FALSE(contains(names, "h2d/batch/task=train/layout=tuple/pin=none/batch=4"));
  EXPECT_TRUE(contains(names, "h2d/batch/task=train/layout=custom/pin=requested/batch=16"));
  EXPECT_FALSE(contains(names, "h2d/batch/task=train/layout=custom/pin=none/batch=16"));
  EXPECT_FALSE(contains(names, "h2d/batch/task=train/layout=tuple/pin=per_member/batch=16"));
}

TEST(BatchCases, FullSweepsUpTo256AndNamesTheGpuWhenThereAreSeveral) {
  const auto names = case_names("h2d/batch", Preset::full, 2);
  EXPECT_TRUE(contains(names, "h2d/batch/gpu=1/task=train/layout=list/pin=pinned_slots/batch=256"));
  EXPECT_TRUE(contains(names, "h2d/batch/gpu=0/task=train/layout=tuple/pin=none/batch=2"));
}

TEST(BatchCases, PreprocessAndHostFamilies) {
  const auto quick = case_names("h2d/preprocess", Preset::quick);
  EXPECT_EQ(quick.size(), 4u);
  EXPECT_TRUE(contains(quick, "h2d/preprocess/where=gpu/mem=pinned/batch=16"));
  const auto standard = case_names("h2d/preprocess", Preset::standard);
  EXPECT_TRUE(contains(standard, "h2d/preprocess/where=cpu/mem=pageable/batch=64"));
  EXPECT_EQ(case_names("host/collate", Preset::quick).size(), 3u * 3 * 2);
  // The host families' default keeps quick's two batch sizes (in cache, and a training batch);
  // full has the whole sweep.
  EXPECT_EQ(case_names("host/collate", Preset::standard),
            case_names("host/collate", Preset::quick));
  EXPECT_TRUE(contains(case_names("host/collate", Preset::full),
                       "host/collate/layout=tuple/into=packed/batch=64"));
  EXPECT_TRUE(
      contains(case_names("host/normalize", Preset::quick), "host/normalize/threads=1/batch=16"));
}

}  // namespace
}  // namespace h2d
