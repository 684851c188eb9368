#pragma once

#include <string>
#include <string_view>

namespace h2d {

// Google Benchmark writes counters that are not finite as bare NaN / Infinity / -Infinity, which
// JSON does not have: with repetitions, the cv aggregate of any counter that is 0 in every
// repetition (bound_by=0, latched=0, page_faults_per_MiB=0) is 0/0, and the report would not
// parse. Replaces those tokens outside strings with null: "undefined", said honestly.
std::string null_non_finite_numbers(std::string_view json);

}  // namespace h2d
