#pragma once

#include "harness/core/case_name.hpp"
#include "harness/core/sample_spec.hpp"

namespace h2d {

// sample=NAME where the run's sample is not the tile: the tile's cases keep the names their
// reports have always had, so reports from before --sample still pair with today's. Every family
// that takes the sample names it this way.
void add_sample_axis(CaseName& name, const SampleSpec& sample);

}  // namespace h2d
