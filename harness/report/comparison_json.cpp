#include "harness/report/comparison_format.hpp"

#include <optional>

#include "harness/report/comparison_cells.hpp"

namespace h2d {
namespace {

nlohmann::json optional_json(const std::optional<double>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

}  // namespace

nlohmann::json comparison_to_json(const Comparison& c) {
  nlohmann::json reports = nlohmann::json::array();
  for (const ComparedReport& r : c.reports) {
    reports.push_back({{"label", r.label},
                       {"path", r.path},
                       {"runs", r.runs},
                       {"sample", r.sample},
                       {"repetitions", r.repetitions},
                       {"machine",
                        {{"hostname", r.machine.hostname},
                         {"gpus", r.machine.gpus},
                         {"link", r.machine.link},
                         {"driver", r.machine.driver},
                         {"runtime", r.machine.runtime},
                         {"cpu", r.machine.cpu},
                         {"numa_nodes", r.machine.numa},
                         {"memory", r.machine.memory},
                         {"preset", r.machine.run},
                         {"build", r.machine.build},
                         {"started_utc", r.machine.started}}}});
  }
  nlohmann::json families = nlohmann::json::array();
  for (const ComparedFamily& family : c.families) {
    nlohmann::json cases = nlohmann::json::array();
    for (const ComparedCase& row : family.cases) {
      nlohmann::json cells = nlohmann::json::array();
      for (std::size_t r = 0; r < row.cells.size(); ++r) {
        const ComparedCell& cell = row.cells[r];
        nlohmann::json entry{
            {"label", c.reports[r].label},        {"present", cell.present},
            {"value", optional_json(cell.value)}, {"run_values", cell.run_values},
            {"repetitions", cell.repetitions},    {"cv_pct", optional_json(cell.cv_pct)}};
        if (!cell.problem.empty()) {
          entry["problem"] = cell.problem;
        }
        if (cell.vs_baseline) {
          const Judgement& j = *cell.vs_baseline;
          entry["ratio"] = j.ratio;
          entry["speedup"] = j.speedup;
          entry["change_pct"] = j.change_pct;
          entry["verdict"] = to_string(j.verdict);
          entry["reliable"] = j.reliable;
          entry["p_value"] = optional_json(j.p_value);
          entry["reason"] = j.reason;
          entry["runs"] = {j.base_runs, j.other_runs};
          entry["speedup_interval_pct"] = {optional_json(j.speedup_low_pct),
                                           optional_json(j.speedup_high_pct)};
        }
        cells.push_back(std::move(entry));
      }
      cases.push_back({{"name", row.name}, {"in_all", row.in_all()}, {"cells", cells}});
    }
    nlohmann::json geomean = nlohmann::json::array();
    for (std::size_t r = 0; r < c.reports.size(); ++r) {
      geomean.push_back({{"label", c.reports[r].label},
                         {"speedup", optional_json(family.geomean_speedup[r])},
                         {"cases", family.geomean_cases[r]}});
    }
    families.push_back({{"family", family.family},
                        {"metric", family.metric.name},
                        {"unit", family.metric.unit},
                        {"better", family.metric.better == Better::higher ? "higher" : "lower"},
                        {"geomean", geomean},
                        {"cases", cases}});
  }
  nlohmann::json peers = nlohmann::json::array();
  for (const ComparedPeerFigure& figure : c.peers) {
    nlohmann::json values = nlohmann::json::array();
    for (const std::optional<double>& value : figure.sides) {
      values.push_back(value ? nlohmann::json(*value) : nlohmann::json());
    }
    peers.push_back({{"peer", figure.peer},
                     {"test", figure.test},
                     {"bytes", figure.bytes},
                     {"unit", figure.unit},
                     {"values", values}});
  }
  return {{"threshold_pct", c.verdict.threshold_pct},
          {"alpha", c.verdict.alpha},
          {"filter", c.filter},
          {"baseline", c.reports.front().label},
          {"reports", reports},
          {"families", families},
          {"one_sided_families", one_sided_lines(c)},
          {"peers", peers},
          {"regressions", reliable_regressions(c)}};
}

}  // namespace h2d
