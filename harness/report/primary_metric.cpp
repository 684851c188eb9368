#include "harness/report/primary_metric.hpp"

#include <array>
#include <string_view>

namespace h2d {
namespace {

bool ends_with(std::string_view text, std::string_view tail) {
  return text.size() >= tail.size() && text.substr(text.size() - tail.size()) == tail;
}

bool starts_with(std::string_view text, std::string_view head) {
  return text.substr(0, head.size()) == head;
}

// family prefix -> primary metric. First match wins; a new family with a rate of its own adds a
// line here, one without needs nothing (the fallback reads GB_per_s, then real_time).
struct TableEntry {
  std::string_view prefix;
  std::string_view metric;
};
constexpr std::array<TableEntry, 8> kTable{{
    {"pipeline/", "samples_per_s"},
    {"host/pipeline/", "samples_per_s"},
    {"host/decode/", "tiles_per_s"},
    {"h2d/decode/", "samples_per_s"},
    {"h2d/", "GB_per_s"},
    {"d2h/", "GB_per_s"},
    {"host/", "GB_per_s"},
    {"batch/", "GB_per_s"},
}};

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

PrimaryMetric primary_metric(const std::string& family,
                             const std::function<bool(const std::string&)>& has) {
  for (const TableEntry& entry : kTable) {
    if (starts_with(family + "/", entry.prefix) && has(std::string(entry.metric))) {
      return describe_metric(std::string(entry.metric));
    }
  }
  for (const char* fallback : {"GB_per_s", "samples_per_s"}) {
    if (has(fallback)) {
      return describe_metric(fallback);
    }
  }
  return describe_metric("real_time");
}

const char* to_string(Better better) {
  return better == Better::higher ? "higher is better" : "lower is better";
}

}  // namespace h2d
