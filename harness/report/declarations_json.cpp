#include "harness/report/declarations_json.hpp"

#include <stdexcept>

#include "harness/report/json_fields.hpp"

namespace h2d {
namespace {

std::optional<AxisRole> role_from(const std::string& text) {
  if (text == "workload") {
    return AxisRole::workload;
  }
  if (text == "strategy") {
    return AxisRole::strategy;
  }
  return std::nullopt;
}

PlotPlace plot_from(const std::string& text) {
  if (text == "panel") {
    return PlotPlace::panel;
  }
  return text == "series" ? PlotPlace::series : PlotPlace::group;
}

std::vector<std::string> strings_of(const nlohmann::json& object, const char* key) {
  std::vector<std::string> values;
  if (object.contains(key) && object[key].is_array()) {
    for (const auto& value : object[key]) {
      if (value.is_string()) {
        values.push_back(value.get<std::string>());
      }
    }
  }
  return values;
}

}  // namespace

nlohmann::json declaration_to_json(const FamilyAxes& family) {
  nlohmann::json axes = nlohmann::json::array();
  for (const AxisDeclaration& axis : family.axes) {
    axes.push_back({{"key", axis.key},
                    {"role", to_string(axis.role)},
                    {"baseline", axis.baseline},
                    {"framework_default", axis.framework_default},
                    {"asks_pinned", axis.asks_pinned},
                    {"asks_async", axis.asks_async},
                    {"plot", to_string(axis.plot)}});
  }
  return {{"family", family.family},
          {"meaning", family.meaning},
          {"metric",
           {{"counter", family.metric.counter},
            {"unit", family.metric.unit},
            {"better", family.metric.better == Better::higher ? "higher" : "lower"}}},
          {"link_bound", family.link_bound},
          {"axes", axes}};
}

nlohmann::json declarations_to_json(const std::vector<FamilyAxes>& families) {
  nlohmann::json all = nlohmann::json::array();
  for (const FamilyAxes& family : families) {
    all.push_back(declaration_to_json(family));
  }
  return all;
}

std::optional<FamilyAxes> declaration_from_json(const nlohmann::json& json) {
  if (!json.is_object() || !json.contains("metric") || !json["metric"].is_object() ||
      !json.contains("axes") || !json["axes"].is_array()) {
    return std::nullopt;
  }
  FamilyAxes family;
  family.family = string_or(json, "family", "");
  family.meaning = string_or(json, "meaning", "");
  const nlohmann::json& metric = json["metric"];
  family.metric.counter = string_or(metric, "counter", "");
  family.metric.unit = string_or(metric, "unit", family.metric.counter);
  family.metric.better =
      string_or(metric, "better", "higher") == "lower" ? Better::lower : Better::higher;
  family.link_bound = bool_or(json, "link_bound", false);
  for (const auto& item : json["axes"]) {
    const auto role = role_from(string_or(item, "role", ""));
    const std::string key = string_or(item, "key", "");
    if (!role || key.empty()) {
      return std::nullopt;
    }
    AxisDeclaration axis;
    axis.key = key;
    axis.role = *role;
    axis.baseline = string_or(item, "baseline", "");
    axis.framework_default = string_or(item, "framework_default", "");
    axis.asks_pinned = strings_of(item, "asks_pinned");
    axis.asks_async = strings_of(item, "asks_async");
    axis.plot = plot_from(string_or(item, "plot", "group"));
    family.axes.push_back(std::move(axis));
  }
  if (family.family.empty() || family.metric.counter.empty()) {
    return std::nullopt;
  }
  return family;
}

nlohmann::json entry_axes(const CaseName& name) {
  const FamilyAxes* declared = name.declaration();
  if (declared == nullptr) {
    throw std::logic_error("entry_axes: the name of " + name.family() + " is not declared");
  }
  nlohmann::json axes = {{"workload", nlohmann::json::object()},
                         {"strategy", nlohmann::json::object()}};
  for (const auto& [key, value] : name.params()) {
    axes[to_string(declared->find(key)->role)][key] = value;
  }
  return axes;
}

}  // namespace h2d
