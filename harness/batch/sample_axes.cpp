#include "harness/batch/sample_axes.hpp"

#include <string>

namespace h2d {

std::vector<Collate> sample_collates(const SampleSpec& sample) {
  if (sample.varies()) {
    return {Collate::pad, Collate::list};
  }
  return {Collate::pad};
}

void add_collate_axis(CaseName& name, const SampleSpec& sample, Collate collate) {
  if (sample.varies()) {
    name.add("collate", std::string(to_string(collate)));
  }
}

}  // namespace h2d
