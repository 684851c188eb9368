#pragma once

#include <nlohmann/json.hpp>

namespace h2d {

// The declarations (harness/core/counter_catalog) of the counters `benchmarks` (a report's
// entries) hold, as the report's `h2dbench.counters`: {"GB_per_s": {"unit": "GB/s", "better":
// "higher", "meaning": "..."}, ...}, so a reader of the file needs no copy of h2dbench to know
// what a number is in. "better" is absent for a setting or a fact; fields nothing declares
// (Google Benchmark's own) are left out.
nlohmann::json counter_declarations_json(const nlohmann::json& benchmarks);

}  // namespace h2d
