#pragma once

#include <benchmark/benchmark.h>

#include <string_view>

namespace h2d {

// The one way a case's number becomes a Google Benchmark counter (and so a report field): `name`
// must be declared, with its unit and meaning, in harness/core/counter_catalog; an undeclared
// name throws std::logic_error (a counter nobody could read the unit of), which fails the case.
void set_counter(benchmark::State& state, std::string_view name, double value);

}  // namespace h2d
