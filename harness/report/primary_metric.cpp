#include "harness/report/primary_metric.hpp"

#include <string_view>

namespace h2d {
namespace {

bool ends_with(std::string_view text, std::string_view tail) {
  return text.size() >= tail.size() && text.substr(text.size() - tail.size()) == tail;
}

}  // namespace

PrimaryMetric describe_metric(const std::string& name) {
  PrimaryMetric metric{name, Better::higher, name};
  if (name == "GB_per_s") {
    metric.unit = "GB/s";
  } else if (ends_with(name, "_per_s")) {
    metric.unit = name.substr(0, name.size() - 6) + "/s";
  } else if (ends_with(name, "_pct")) {
    metric.unit = "%";
  } else if (name == "real_time" || name == "cpu_time" || ends_with(name, "_us")) {
    metric.better = Better::lower;
    metric.unit = "us";
  } else if (ends_with(name, "_ms")) {
    metric.better = Better::lower;
    metric.unit = "ms";
  } else if (ends_with(name, "_s")) {
    metric.better = Better::lower;
    metric.unit = "s";
  }
  return metric;
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
