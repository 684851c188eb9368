#include "harness/report/comparison_csv.hpp"

#include <fmt/format.h>

#include <optional>
#include <vector>

namespace h2d {
namespace {

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) {
    return text;
  }
  std::string out = "\"";
  for (char ch : text) {
    out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  }
  return out + "\"";
}

std::string optional_number(const std::optional<double>& value) {
  return value ? fmt::format("{:.6g}", *value) : std::string();
}

}  // namespace

std::string format_csv(const Comparison& c) {
  std::string out =
      "family,case,metric,better,label,host,value,repetitions,cv_pct,ratio,speedup,verdict,"
      "reliable,p_value,reason\n";
  for (const ComparedFamily& family : c.families) {
    for (const ComparedCase& row : family.cases) {
      for (std::size_t r = 0; r < row.cells.size(); ++r) {
        const ComparedCell& cell = row.cells[r];
        const auto& j = cell.vs_baseline;
        const std::vector<std::string> fields{
            family.family,
            row.name,
            family.metric.name,
            family.metric.better == Better::higher ? "higher" : "lower",
            c.reports[r].label,
            c.reports[r].machine.hostname,
            optional_number(cell.value),
            cell.present ? std::to_string(cell.repetitions) : "",
            optional_number(cell.cv_pct),
            j ? optional_number(j->ratio) : "",
            j ? optional_number(j->speedup) : "",
            j ? to_string(j->verdict) : (r == 0 ? "baseline" : ""),
            j ? (j->reliable ? "true" : "false") : "",
            j ? optional_number(j->p_value) : "",
            j ? j->reason : cell.problem,
        };
        for (std::size_t f = 0; f < fields.size(); ++f) {
          out += (f == 0 ? "" : ",") + csv_field(fields[f]);
        }
        out += "\n";
      }
    }
  }
  return out;
}

}  // namespace h2d
