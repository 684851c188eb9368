#pragma once

#include <optional>
#include <string>
#include <vector>

namespace h2d {

// Checks the --benchmark_* flags a run passes through to Google Benchmark before anything runs.
// Google Benchmark would find a bad one only once the suite starts, and answer on several lines,
// with exit(1), with its usage text and exit code 0 (--benchmark_time_unit=xx), with an abort
// (--benchmark_repetitions=-3) or with an empty report (--benchmark_repetitions=0).
// Throws UsageError for a flag it does not have, a value of the wrong type or range, a flag given
// twice, and the flags that fight h2dbench's own output (--benchmark_out, --benchmark_out_format,
// --benchmark_format, --benchmark_list_tests, --benchmark_time_unit,
// --benchmark_display_aggregates_only), saying what to use instead.
void check_benchmark_flags(const std::vector<std::string>& flags);

// The value of --benchmark_<name> among `flags` ("true" for a bare --benchmark_<name>).
std::optional<std::string> benchmark_flag(const std::vector<std::string>& flags,
                                          const std::string& name);

// Google Benchmark's spellings of a boolean: true/false, yes/no, on/off, 1/0 (any case).
// Throws std::invalid_argument for anything else.
bool parse_benchmark_bool(const std::string& value);

// The seconds of a --benchmark_min_time value ("0.5" or Google Benchmark 1.8's "0.5s"): the least
// each case measures (StoppingRule::min_seconds). Throws UsageError for anything else.
double min_time_seconds(const std::string& value);

// --benchmark_filter's regular expression matches `name`; a leading '-' negates it, as in Google
// Benchmark. An empty filter matches everything.
bool benchmark_filter_matches(const std::string& filter, const std::string& name);

}  // namespace h2d
