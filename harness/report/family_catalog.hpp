#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <string>

#include "harness/core/family_axes.hpp"
#include "harness/report/report_cases.hpp"

namespace h2d {

// The declarations that apply to one report's families: those the report carries
// (h2dbench.declarations, written by the run that measured it) over h2dbench's own
// (declared_families()), so a report from a newer or older h2dbench reads as it was meant.
class FamilyCatalog {
 public:
  explicit FamilyCatalog(const nlohmann::json& report);

  // nullptr for a family neither the report nor this h2dbench declares.
  const FamilyAxes* find(const std::string& family) const;

  // The role of `key` in case `c`: from the entry's own `axes`, else from its family's
  // declaration, else workload (an unknown key never makes two workloads look like one).
  AxisRole role_of(const ReportCase& c, const std::string& key) const;
  // The declared axis of `key` in `c`'s family, or nullptr.
  const AxisDeclaration* axis_of(const ReportCase& c, const std::string& key) const;

 private:
  std::map<std::string, FamilyAxes> carried_;
};

}  // namespace h2d
