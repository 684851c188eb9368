#include "harness/measure/counters.hpp"

#include <stdexcept>
#include <string>

#include "harness/core/counter_catalog.hpp"

namespace h2d {

void set_counter(benchmark::State& state, std::string_view name, double value) {
  if (find_declared_counter(name) == nullptr) {
    throw std::logic_error("counter '" + std::string(name) +
                           "' is not declared in harness/core/counter_catalog.cpp");
  }
  state.counters[std::string(name)] = value;
}

}  // namespace h2d
