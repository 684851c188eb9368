#include "harness/report/counter_declarations_json.hpp"

#include "harness/core/counter_catalog.hpp"

namespace h2d {

nlohmann::json counter_declarations_json(const nlohmann::json& benchmarks) {
  nlohmann::json counters = nlohmann::json::object();
  if (!benchmarks.is_array()) {
    return counters;
  }
  for (const nlohmann::json& entry : benchmarks) {
    if (!entry.is_object()) {
      continue;
    }
    for (const auto& [name, value] : entry.items()) {
      if (!value.is_number() || counters.contains(name)) {
        continue;
      }
      if (const CounterDeclaration* declared = find_declared_counter(name)) {
        nlohmann::json declaration = {{"unit", declared->unit}, {"meaning", declared->meaning}};
        if (declared->better) {
          declaration["better"] = *declared->better == Better::higher ? "higher" : "lower";
        }
        counters[name] = std::move(declaration);
      }
    }
  }
  return counters;
}

}  // namespace h2d
