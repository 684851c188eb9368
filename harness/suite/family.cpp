#include "harness/suite/family.hpp"

#include <algorithm>
#include <stdexcept>

namespace h2d {
namespace {
std::vector<Family>& registry() {
  static std::vector<Family> families;
  return families;
}
}  // namespace

bool register_family(Family family) {
  auto& families = registry();
  const bool duplicate = std::any_of(families.begin(), families.end(),
                                     [&](const Family& f) { return f.name == family.name; });
  if (duplicate) {
    throw std::logic_error("benchmark family registered twice: " + family.name);
  }
  families.push_back(std::move(family));
  return true;
}

std::vector<Family> registered_families() {
  std::vector<Family> families = registry();
  std::sort(families.begin(), families.end(),
            [](const Family& a, const Family& b) { return a.name < b.name; });
  return families;
}

}  // namespace h2d
