#include "harness/suite/case_builder.hpp"

namespace h2d {

CaseName case_name_on(const std::string& family, const RunPlan& plan, const DeviceInfo& gpu) {
  CaseName name(declared_family(family));
  if (plan.devices.size() > 1) {
    name.add("gpu", gpu.ordinal);
  }
  return name;
}

}  // namespace h2d
