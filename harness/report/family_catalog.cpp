#include "harness/report/family_catalog.hpp"

#include "harness/report/declarations_json.hpp"

namespace h2d {

FamilyCatalog::FamilyCatalog(const nlohmann::json& report) {
  if (!report.is_object() || !report.contains("h2dbench") || !report["h2dbench"].is_object()) {
    return;
  }
  const nlohmann::json& context = report["h2dbench"];
  if (!context.contains("declarations") || !context["declarations"].is_array()) {
    return;
  }
  for (const auto& item : context["declarations"]) {
    if (auto declared = declaration_from_json(item)) {
      std::string family = declared->family;
      carried_.insert_or_assign(std::move(family), std::move(*declared));
    }
  }
}

const FamilyAxes* FamilyCatalog::find(const std::string& family) const {
  const auto carried = carried_.find(family);
  return carried != carried_.end() ? &carried->second : find_declared_family(family);
}

const AxisDeclaration* FamilyCatalog::axis_of(const ReportCase& c, const std::string& key) const {
  const FamilyAxes* declared = find(c.parsed.family);
  return declared == nullptr ? nullptr : declared->find(key);
}

AxisRole FamilyCatalog::role_of(const ReportCase& c, const std::string& key) const {
  if (const auto own = c.roles.find(key); own != c.roles.end()) {
    return own->second;
  }
  const AxisDeclaration* axis = axis_of(c, key);
  return axis == nullptr ? AxisRole::workload : axis->role;
}

}  // namespace h2d
