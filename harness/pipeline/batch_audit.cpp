#include "harness/pipeline/batch_audit.hpp"

#include <fmt/format.h>

#include <utility>

#include "harness/decode/level_difference.hpp"

namespace h2d {

BatchAudit::BatchAudit(std::size_t batches, SampleIds ids) : ids_(ids), seen_(batches, false) {}

void BatchAudit::note_failure(std::size_t& counter, std::string what) {
  ++counter;
  if (first_failure_.empty()) {
    first_failure_ = std::move(what);
  }
}

void BatchAudit::check(std::uint64_t batch, bool verified,
                       const std::vector<std::uint64_t>& sent_sums, const StepOutputs& outputs) {
  if (seen_[batch]) {
    note_failure(lost_, fmt::format("batch {} went through the step twice", batch));
  }
  seen_[batch] = true;
  for (std::size_t i = 0; i < outputs.ids.size(); ++i) {
    if (outputs.ids[i] != ids_.of(batch, i)) {
      note_failure(lost_, fmt::format("batch {}: sample {} came back with id {}, expected {} "
                                      "(stale or misplaced data)",
                                      batch, i, outputs.ids[i], ids_.of(batch, i)));
      break;
    }
  }
  if (!verified) {
    return;
  }
  ++verified_;
  if (outputs.sums.size() != sent_sums.size()) {
    note_failure(checksum_failures_,
                 fmt::format("batch {}: the step returned no checksums", batch));
    return;
  }
  for (std::size_t i = 0; i < sent_sums.size(); ++i) {
    if (outputs.sums[i] != sent_sums[i]) {
      note_failure(checksum_failures_,
                   fmt::format("batch {}: sample {} arrived with checksum {:#x}, sent {:#x}", batch,
                               i, outputs.sums[i], sent_sums[i]));
      break;
    }
  }
}

void BatchAudit::check_decoded(std::uint64_t batch, std::size_t sample,
                               const std::vector<std::uint8_t>& reference,
                               const StepOutputs& outputs) {
  ++verified_;
  if (reference.empty() || outputs.pixels.size() != reference.size()) {
    note_failure(checksum_failures_,
                 fmt::format("batch {}: sample {} came back with {} decoded bytes, expected {}",
                             batch, sample, outputs.pixels.size(), reference.size()));
    return;
  }
  const LevelDifference difference =
      compare_levels(outputs.pixels.data(), reference.data(), reference.size());
  if (!(difference.mean <= kProvisionalMeanLevels)) {
    note_failure(
        checksum_failures_,
        fmt::format("batch {}: sample {} decoded on the GPU is {:.2f} levels off "
                    "libjpeg-turbo's decode on average (max {}), more than {}",
                    batch, sample, difference.mean, difference.max, kProvisionalMeanLevels));
  }
}

void BatchAudit::check_all_seen() {
  for (std::size_t batch = 0; batch < seen_.size(); ++batch) {
    if (!seen_[batch]) {
      note_failure(lost_, fmt::format("batch {} never went through the step", batch));
    }
  }
}

void BatchAudit::write_to(EpochResult& result) const {
  result.verified = verified_;
  result.checksum_failures = checksum_failures_;
  result.lost_batches = lost_;
  result.first_failure = first_failure_;
}

}  // namespace h2d
