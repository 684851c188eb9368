#include "harness/core/sample_axis.hpp"

namespace h2d {

void add_sample_axis(CaseName& name, const SampleSpec& sample) {
  if (sample.name != "tile") {
    name.add("sample", sample.name);
  }
}

}  // namespace h2d
