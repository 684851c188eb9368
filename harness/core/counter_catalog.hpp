#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/core/family_axes.hpp"

namespace h2d {

// Every number a case writes beside Google Benchmark's own times (its counters, and its numeric
// parameters, which are written as counters too), declared once: its unit and what it means.
// set_counter (harness/measure/counters) refuses a name not declared here, so no counter reaches
// a report without a declared unit; the report carries the declarations of the counters it holds
// (`h2dbench.counters`), and the metric fallbacks read their unit and direction from here instead
// of guessing them from the spelling of a name.
struct CounterDeclaration {
  std::string name;  // as in the report; "gpu<N>_GB_per_s" stands for gpu0_GB_per_s, gpu1_...
  std::string unit;  // for people: "GB/s", "ms", "%", "bytes"; "" for a count or a code
  std::optional<Better> better;  // nullopt: a setting or a fact, not a figure of merit
  std::string meaning;           // one line
};

// Sorted by name.
const std::vector<CounterDeclaration>& declared_counters();

// The declaration `name` matches ("gpu3_GB_per_s" matches "gpu<N>_GB_per_s"); nullptr when none.
const CounterDeclaration* find_declared_counter(std::string_view name);

}  // namespace h2d
