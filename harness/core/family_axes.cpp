#include "harness/core/family_axes.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <stdexcept>

namespace h2d {

const AxisDeclaration* FamilyAxes::find(const std::string& key) const {
  const auto at = std::find_if(axes.begin(), axes.end(),
                               [&](const AxisDeclaration& axis) { return axis.key == key; });
  return at == axes.end() ? nullptr : &*at;
}

std::string FamilyAxes::keys_text() const {
  std::vector<std::string> keys;
  for (const AxisDeclaration& axis : axes) {
    keys.push_back(axis.key);
  }
  return fmt::format("{}", fmt::join(keys, ", "));
}

const char* to_string(AxisRole role) {
  return role == AxisRole::workload ? "workload" : "strategy";
}

const char* to_string(Better better) {
  return better == Better::higher ? "higher is better" : "lower is better";
}

const char* to_string(PlotPlace place) {
  switch (place) {
    case PlotPlace::panel:
      return "panel";
    case PlotPlace::series:
      return "series";
    case PlotPlace::group:
      break;
  }
  return "group";
}

const FamilyAxes* find_declared_family(const std::string& family) {
  const std::vector<FamilyAxes>& all = declared_families();
  const auto at = std::lower_bound(
      all.begin(), all.end(), family,
      [](const FamilyAxes& declared, const std::string& name) { return declared.family < name; });
  return at != all.end() && at->family == family ? &*at : nullptr;
}

const FamilyAxes& declared_family(const std::string& family) {
  if (const FamilyAxes* declared = find_declared_family(family)) {
    return *declared;
  }
  std::vector<std::string> names;
  for (const FamilyAxes& declared : declared_families()) {
    names.push_back(declared.family);
  }
  throw std::logic_error(fmt::format(
      "family '{}' has no declaration in harness/core/family_declarations.cpp (declared: {})",
      family, fmt::join(names, ", ")));
}

}  // namespace h2d
