#include "harness/report/report_cases.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "harness/core/statistics.hpp"
#include "harness/report/json_fields.hpp"

namespace h2d {
namespace {

// The entry's `axes` object ({"workload": {...}, "strategy": {...}}): each key's role.
void read_roles(const nlohmann::json& entry, std::map<std::string, AxisRole>& roles) {
  const auto axes = entry.find("axes");
  if (axes == entry.end() || !axes->is_object()) {
    return;
  }
  for (const auto& [name, role] :
       {std::pair{"workload", AxisRole::workload}, std::pair{"strategy", AxisRole::strategy}}) {
    const auto keys = axes->find(name);
    if (keys != axes->end() && keys->is_object()) {
      for (const auto& item : keys->items()) {
        roles[item.key()] = role;
      }
    }
  }
}

// Google Benchmark's own bookkeeping, not measurements ("iterations" is kept: it says whether a
// within-run cv could be measured at all).
bool is_bookkeeping(const std::string& key) {
  static const std::set<std::string> keys{"family_index", "per_family_instance_index",
                                          "repetition_index", "repetitions"};
  return keys.count(key) > 0;
}

double microseconds_per(const std::string& time_unit) {
  if (time_unit == "ns") {
    return 1e-3;
  }
  if (time_unit == "ms") {
    return 1e3;
  }
  if (time_unit == "s") {
    return 1e6;
  }
  return 1;  // "us", and GB's default when absent
}

std::map<std::string, double> numeric_values(const nlohmann::json& entry) {
  std::map<std::string, double> values;
  const double scale = microseconds_per(string_or(entry, "time_unit", "us"));
  for (const auto& [key, value] : entry.items()) {
    if (!value.is_number() || is_bookkeeping(key)) {
      continue;
    }
    const bool is_time = key == "real_time" || key == "cpu_time";
    values[key] = value.get<double>() * (is_time ? scale : 1.0);
  }
  return values;
}

std::string run_name_of(const nlohmann::json& entry) {
  return string_or(entry, "run_name", string_or(entry, "name", ""));
}

}  // namespace

bool ReportCase::has(const std::string& metric) const {
  const auto found = values.find(metric);
  return found != values.end() && !found->second.empty();
}

double ReportCase::median(const std::string& metric) const {
  const auto found = values.find(metric);
  if (found == values.end() || found->second.empty()) {
    throw std::out_of_range("case '" + name + "' has no value '" + metric + "'");
  }
  return summarize(found->second).median;
}

std::optional<double> ReportCase::find_median(const std::string& metric) const {
  if (!has(metric)) {
    return std::nullopt;
  }
  return median(metric);
}

std::optional<double> ReportCase::noise_pct(const std::string& metric) const {
  std::optional<double> noise = find_median("cv_pct");
  // The samples behind cv_pct: the case's measurements (since the stopping rule, Google
  // Benchmark's iterations is 1 for every case), else, in older reports, its iterations.
  auto samples = find_median("measurements");
  if (!samples) {
    samples = find_median("iterations");
  }
  if (samples && *samples < 2) {
    noise.reset();  // one sample in the run: its cv of 0 says nothing
  }
  const auto found = values.find(metric);
  if (found != values.end() && found->second.size() >= 2) {
    noise = std::max(noise.value_or(0.0), summarize(found->second).cv * 100);
  }
  return noise;
}

std::vector<ReportCase> collect_cases(const nlohmann::json& report) {
  std::vector<ReportCase> cases;
  std::map<std::string, std::size_t> index;
  // Aggregates are kept aside: they are used only for a case that has no iteration entry.
  std::map<std::string, std::map<std::string, nlohmann::json>> aggregates;
  if (!report.contains("benchmarks") || !report["benchmarks"].is_array()) {
    return cases;
  }
  for (const auto& entry : report["benchmarks"]) {
    if (!entry.is_object()) {
      continue;
    }
    const std::string name = run_name_of(entry);
    if (name.empty()) {
      continue;
    }
    auto [at, inserted] = index.emplace(name, cases.size());
    if (inserted) {
      ReportCase fresh;
      fresh.name = name;
      fresh.parsed = parse_case_name(name);
      cases.push_back(std::move(fresh));
    }
    ReportCase& c = cases[at->second];
    read_roles(entry, c.roles);
    if (bool_or(entry, "error_occurred", false)) {
      c.error = string_or(entry, "error_message", "error (no message)");
      continue;
    }
    if (string_or(entry, "run_type", "iteration") == "aggregate") {
      aggregates[name][string_or(entry, "aggregate_name", "")] = entry;
      if (entry.contains("repetitions") && entry["repetitions"].is_number_integer() &&
          entry["repetitions"].get<long long>() > 0) {
        c.repetitions = std::max(c.repetitions, entry["repetitions"].get<std::size_t>());
      }
      continue;
    }
    for (const auto& [key, value] : numeric_values(entry)) {
      c.values[key].push_back(value);
    }
  }
  for (ReportCase& c : cases) {
    const auto count_iterations = [&c] {
      std::size_t most = 0;
      for (const auto& [key, list] : c.values) {
        most = std::max(most, list.size());
      }
      return most;
    };
    const std::size_t iterations = count_iterations();
    if (iterations > 0) {
      c.repetitions = iterations;
      continue;
    }
    const auto found = aggregates.find(c.name);
    if (found == aggregates.end() || found->second.count("median") == 0) {
      continue;
    }
    c.aggregates_only = true;
    for (const auto& [key, value] : numeric_values(found->second.at("median"))) {
      c.values[key].push_back(value);
    }
    if (found->second.count("stddev") > 0) {
      c.aggregate_stddev = numeric_values(found->second.at("stddev"));
    }
  }
  return cases;
}

std::vector<std::string> families_of(const std::vector<ReportCase>& cases) {
  std::vector<std::string> families;
  std::set<std::string> seen;
  for (const ReportCase& c : cases) {
    if (seen.insert(c.parsed.family).second) {
      families.push_back(c.parsed.family);
    }
  }
  return families;
}

}  // namespace h2d
