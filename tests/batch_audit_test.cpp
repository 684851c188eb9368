#include "harness/pipeline/batch_audit.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

namespace h2d {
namespace {

constexpr SampleIds kIds{100, 2};  // ids run on from an earlier epoch's 100 samples

StepOutputs outputs_of(std::uint64_t batch, std::vector<std::uint64_t> sums = {}) {
  StepOutputs outputs;
  outputs.ids = {kIds.of(batch, 0), kIds.of(batch, 1)};
  outputs.sums = std::move(sums);
  return outputs;
}

EpochResult result_of(const BatchAudit& audit) {
  EpochResult result;
  audit.write_to(result);
  return result;
}

TEST(BatchAudit, EveryBatchOnceWithItsIdsAndSumsIsClean) {
  BatchAudit audit(2, kIds);
  audit.check(0, /*verified=*/true, {7, 8}, outputs_of(0, {7, 8}));
  audit.check(1, /*verified=*/false, {}, outputs_of(1));
  audit.check_all_seen();
  const EpochResult result = result_of(audit);
  EXPECT_EQ(result.verified, 1u);
  EXPECT_EQ(result.checksum_failures, 0u);
  EXPECT_EQ(result.lost_batches, 0u);
  EXPECT_EQ(result.first_failure, "");
}

TEST(BatchAudit, CountsTwiceStaleAndMissingBatchesAndKeepsTheFirstFailure) {
  BatchAudit audit(3, kIds);
  audit.check(0, false, {}, outputs_of(0));
  audit.check(0, false, {}, outputs_of(0));  // twice
  StepOutputs stale = outputs_of(1);
  stale.ids[1] = 1;  // the earlier epoch's sample
  audit.check(1, false, {}, stale);
  audit.check_all_seen();  // batch 2 never came
  const EpochResult result = result_of(audit);
  EXPECT_EQ(result.lost_batches, 3u);
  EXPECT_EQ(result.first_failure, "batch 0 went through the step twice");
}

TEST(BatchAudit, ChecksumsThatDifferOrAreMissingFail) {
  BatchAudit audit(2, kIds);
  audit.check(0, true, {7, 8}, outputs_of(0, {7, 9}));
  audit.check(1, true, {7, 8}, outputs_of(1));
  const EpochResult result = result_of(audit);
  EXPECT_EQ(result.verified, 2u);
  EXPECT_EQ(result.checksum_failures, 2u);
  EXPECT_EQ(result.first_failure, "batch 0: sample 1 arrived with checksum 0x9, sent 0x8");
}

}  // namespace
}  // namespace h2d
