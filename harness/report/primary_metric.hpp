#pragma once

#include <functional>
#include <string>

namespace h2d {

enum class Better { higher, lower };

// The number that decides "faster" for a family: a rate where the family has one, else a time.
struct PrimaryMetric {
  std::string name;  // the counter, e.g. GB_per_s; "real_time" is GB's time in microseconds
  Better better = Better::higher;
  std::string unit;  // for people: "GB/s", "samples/s", "us"
};

// Picks the primary metric of `family` from a small table of family prefixes (pipeline/* ->
// samples_per_s, copy families -> GB_per_s, ...), falling back to GB_per_s and then real_time.
// A table entry applies only when `has(metric)` says the family's cases carry it, so a family
// that does not exist yet still gets a sensible metric.
PrimaryMetric primary_metric(const std::string& family,
                             const std::function<bool(const std::string&)>& has);

// Direction and unit from a metric's name: *_per_s, *_pct, *_per_batch are "higher is better"
// rates; *_us, *_ms, *_s, real_time, cpu_time are "lower is better" times.
PrimaryMetric describe_metric(const std::string& name);

const char* to_string(Better better);

}  // namespace h2d
