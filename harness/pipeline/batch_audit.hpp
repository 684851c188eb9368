#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "harness/pipeline/pipeline.hpp"
#include "harness/pipeline/step_engine.hpp"

namespace h2d {

// The ids of an epoch's samples. They run on from one epoch to the next (first_sample), so a slot
// still holding an earlier epoch's batch cannot pass for this one's.
struct SampleIds {
  std::uint64_t first_sample = 0;
  std::size_t batch_size = 0;

  std::uint64_t of(std::uint64_t batch, std::size_t index) const {
    return first_sample + batch * batch_size + index;
  }
};

// What came back from the step must be what was sent: each batch once, its samples' ids in place,
// and (verified batches) the checksums the workers took. Counts what was not and keeps the first
// failure in words. Used by the step thread alone.
class BatchAudit {
 public:
  BatchAudit(std::size_t batches, SampleIds ids);

  // `sent_sums`: the per-sample checksums taken when the batch was produced (verified only).
  void check(std::uint64_t batch, bool verified, const std::vector<std::uint64_t>& sent_sums,
             const StepOutputs& outputs);
  // decode=gpu, a verified batch: the decoded pixels of sample `sample` that came back must be
  // within kProvisionalMeanLevels of libjpeg-turbo's decode `reference` (the IDCTs differ, so
  // no exact checksum can match).
  void check_decoded(std::uint64_t batch, std::size_t sample,
                     const std::vector<std::uint8_t>& reference, const StepOutputs& outputs);
  // When the epoch completed: a batch that never went through the step is lost.
  void check_all_seen();
  // verified, checksum_failures, lost_batches and first_failure.
  void write_to(EpochResult& result) const;

 private:
  void note_failure(std::size_t& counter, std::string what);

  SampleIds ids_;
  std::vector<bool> seen_;
  std::size_t verified_ = 0;
  std::size_t checksum_failures_ = 0;
  std::size_t lost_ = 0;
  std::string first_failure_;
};

}  // namespace h2d
