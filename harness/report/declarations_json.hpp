#pragma once

#include <nlohmann/json.hpp>

#include <optional>

#include "harness/core/case_name.hpp"
#include "harness/core/family_axes.hpp"

namespace h2d {

// The JSON form of the family declarations (harness/core/family_axes.hpp), written once here:
// into each report (h2dbench.declarations, and `axes` on each entry), and for the plots
// (`h2dbench list --declarations`, kept as plots/declared_families.json).

// {"family", "meaning", "metric": {"counter", "unit", "better": "higher"|"lower"}, "link_bound",
//  "axes": [{"key", "role": "workload"|"strategy", "baseline", "framework_default", "asks_pinned",
//  "asks_async",
//  "plot": "group"|"panel"|"series"}]}
nlohmann::json declaration_to_json(const FamilyAxes& family);
nlohmann::json declarations_to_json(const std::vector<FamilyAxes>& families);

// The declaration a report carries, or nullopt when `json` is not one (a hand edit, a newer
// writer): readers then fall back to h2dbench's own declaration of the family.
std::optional<FamilyAxes> declaration_from_json(const nlohmann::json& json);

// A case's `axes` object: {"workload": {"dir": "h2d", "bytes": "64MiB"}, "strategy": {"kind":
// "pinned", "mode": "async"}}, from its declared name.
nlohmann::json entry_axes(const CaseName& name);

}  // namespace h2d
