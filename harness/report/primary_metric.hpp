#pragma once

#include <functional>
#include <string>

#include "harness/core/family_axes.hpp"

namespace h2d {

// The number that decides "faster" for a family: a rate where the family has one, else a time.
struct PrimaryMetric {
  std::string name;  // the counter, e.g. GB_per_s; "real_time" is GB's time in microseconds
  Better better = Better::higher;
  std::string unit;  // for people: "GB/s", "samples/s", "us"
};

// The family's declared metric (family_axes.hpp) when `has(counter)` says its cases carry it;
// otherwise, for a family without a declaration or a report without that counter, GB_per_s,
// then samples_per_s, then real_time.
PrimaryMetric primary_metric(const FamilyAxes* declared,
                             const std::function<bool(const std::string&)>& has);

// Direction and unit of a counter from its declaration (harness/core/counter_catalog); real_time
// and cpu_time are Google Benchmark's times in microseconds. A name nothing declares (a report
// from elsewhere) gets no unit and "higher is better".
PrimaryMetric describe_metric(const std::string& name);

}  // namespace h2d
