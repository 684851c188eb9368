#include "harness/core/link_bound_family.hpp"

namespace h2d {

bool is_link_bound_family(const std::string& family) {
  if (family == "h2d/pin_cost") {
    return false;
  }
  return family.rfind("h2d/", 0) == 0 || family.rfind("multi/", 0) == 0;
}

}  // namespace h2d
