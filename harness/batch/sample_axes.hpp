#pragma once

#include <vector>

#include "harness/batch/batch.hpp"
#include "harness/core/case_name.hpp"
#include "harness/core/sample_axis.hpp"
#include "harness/core/sample_spec.hpp"

namespace h2d {

// How the batch families name what --sample changes, declared once for all of them (sample=NAME:
// harness/core/sample_axis.hpp, shared with the loader loops).

// The collates a sample is measured with: pad and list where a member varies, else pad alone
// (one tensor a member either way, and no collate axis in the name).
std::vector<Collate> sample_collates(const SampleSpec& sample);

// collate=pad|list where a member of the sample varies.
void add_collate_axis(CaseName& name, const SampleSpec& sample, Collate collate);

}  // namespace h2d
