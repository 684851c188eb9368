#include "harness/report/primary_metric.hpp"

#include "harness/core/counter_catalog.hpp"

namespace h2d {

PrimaryMetric describe_metric(const std::string& name) {
  if (name == "real_time" || name == "cpu_time") {  // Google Benchmark's, in microseconds
    return {name, Better::lower, "us"};
  }
  if (const CounterDeclaration* counter = find_declared_counter(name)) {
    return {name, counter->better.value_or(Better::higher), counter->unit};
  }
  return {name, Better::higher, ""};
}

PrimaryMetric primary_metric(const FamilyAxes* declared,
                             const std::function<bool(const std::string&)>& has) {
  if (declared != nullptr && has(declared->metric.counter)) {
    return {declared->metric.counter, declared->metric.better, declared->metric.unit};
  }
  for (const char* fallback : {"GB_per_s", "samples_per_s"}) {
    if (has(fallback)) {
      return describe_metric(fallback);
    }
  }
  return describe_metric("real_time");
}

}  // namespace h2d
