#include "harness/report/comparison_format.hpp"

#include <fmt/format.h>

#include <functional>

#include "harness/core/mann_whitney.hpp"
#include "harness/core/number_text.hpp"
#include "harness/core/text_table.hpp"
#include "harness/core/usage_error.hpp"

namespace h2d {
namespace {

using Colour = TextTable::Colour;

std::string case_label(const ComparedFamily& family, const std::string& name) {
  return name.size() > family.family.size() + 1 ? name.substr(family.family.size() + 1) : name;
}

std::string value_text(const ComparedCell& cell) {
  if (!cell.value) {
    return cell.present ? "no value" : "-";
  }
  std::string text = short_number(*cell.value);
  if (cell.cv_pct) {
    text += fmt::format(" ±{:.0f}%", *cell.cv_pct);
  }
  return text;
}

std::string verdict_text(const Judgement& judgement) {
  std::string text = to_string(judgement.verdict);
  if (!judgement.reliable) {
    text += "?";
  } else if (judgement.p_value) {
    text += fmt::format(" p={:.2g}", *judgement.p_value);
  }
  return text;
}

Colour verdict_colour(const Judgement& judgement) {
  if (!judgement.reliable) {
    return Colour::yellow;
  }
  switch (judgement.verdict) {
    case Verdict::faster:
      return Colour::green;
    case Verdict::slower:
      return Colour::red;
    case Verdict::same:
      return Colour::none;
  }
  return Colour::none;
}

std::string metric_heading(const ComparedFamily& family) {
  return fmt::format("{} ({}, {})", family.family, family.metric.unit,
                     to_string(family.metric.better));
}

// The machine facts as rows: label, one text per report.
std::vector<std::pair<std::string, std::vector<std::string>>> machine_rows(const Comparison& c) {
  const std::vector<std::pair<std::string, std::function<std::string(const ComparedReport&)>>>
      fields{
          {"report", [](const ComparedReport& r) { return r.path; }},
          {"host", [](const ComparedReport& r) { return r.machine.hostname; }},
          {"GPU", [](const ComparedReport& r) { return r.machine.gpus; }},
          {"link", [](const ComparedReport& r) { return r.machine.link; }},
          {"CUDA driver", [](const ComparedReport& r) { return r.machine.driver; }},
          {"CUDA runtime", [](const ComparedReport& r) { return r.machine.runtime; }},
          {"CPU", [](const ComparedReport& r) { return r.machine.cpu; }},
          {"NUMA nodes", [](const ComparedReport& r) { return r.machine.numa; }},
          {"memory", [](const ComparedReport& r) { return r.machine.memory; }},
          {"preset",
           [](const ComparedReport& r) {
             return fmt::format("{} ({} repetition{})", r.machine.run, r.repetitions,
                                r.repetitions == 1 ? "" : "s");
           }},
          {"h2dbench", [](const ComparedReport& r) { return r.machine.build; }},
          {"started", [](const ComparedReport& r) { return r.machine.started; }},
      };
  std::vector<std::pair<std::string, std::vector<std::string>>> rows;
  for (const auto& [label, get] : fields) {
    std::vector<std::string> values;
    for (const ComparedReport& report : c.reports) {
      values.push_back(get(report));
    }
    rows.emplace_back(label, std::move(values));
  }
  return rows;
}

// Cases missing from some report, or present without a value: "name: A: why; C: why".
std::vector<std::string> incomplete_lines(const Comparison& c) {
  std::vector<std::string> lines;
  for (const ComparedFamily& family : c.families) {
    for (const ComparedCase& row : family.cases) {
      std::string where;
      bool complete = true;
      for (std::size_t r = 0; r < row.cells.size(); ++r) {
        const ComparedCell& cell = row.cells[r];
        if (!cell.value) {
          complete = false;
          where +=
              fmt::format("{}{}: {}", where.empty() ? "" : "; ", c.reports[r].label, cell.problem);
        }
      }
      if (!complete) {
        lines.push_back(fmt::format("{} ({})", row.name, where));
      }
    }
  }
  return lines;
}

std::string footnote(const Comparison& c) {
  return fmt::format(
      "Speed-up > 1 means faster than {0} (for times it is {0}/X). Changes below {1:g}% are "
      "'same'. With >= {2} repetitions per side a two-sided Mann-Whitney U test decides "
      "(alpha {3:g}); with 2-{4} the repetitions must not overlap. '?' marks a verdict from one "
      "measurement per side: unreliable; rerun with --preset default or "
      "--benchmark_repetitions=5. ± is the noise (cv) of the value.",
      c.reports.front().label, c.verdict.threshold_pct, kMinUTestRepetitions, c.verdict.alpha,
      kMinUTestRepetitions - 1);
}

std::string format_table(const Comparison& c, bool colour) {
  std::string out = fmt::format("h2dbench compare: {} reports, {} is the baseline\n\n",
                                c.reports.size(), c.reports.front().label);
  std::vector<std::string> header{""};
  for (const ComparedReport& report : c.reports) {
    header.push_back(report.label);
  }
  TextTable machines(header, std::vector<bool>(header.size(), true));
  for (const auto& [label, values] : machine_rows(c)) {
    std::vector<TextTable::Cell> row{{label, Colour::bold}};
    for (const auto& value : values) {
      row.push_back({value});
    }
    machines.add_row(std::move(row));
  }
  out += machines.str(colour);

  for (const ComparedFamily& family : c.families) {
    out += "\n" + (colour ? paint(metric_heading(family), Colour::bold) : metric_heading(family)) +
           "\n";
    std::vector<std::string> columns{"case", c.reports.front().label};
    std::vector<bool> left{true, false};
    for (std::size_t r = 1; r < c.reports.size(); ++r) {
      columns.push_back(c.reports[r].label);
      columns.push_back(fmt::format("{} vs {}", c.reports[r].label, c.reports.front().label));
      columns.push_back("verdict");
      left.insert(left.end(), {false, false, true});
    }
    TextTable table(columns, left);
    for (const ComparedCase& row : family.cases) {
      std::vector<TextTable::Cell> cells{{case_label(family, row.name)},
                                         {value_text(row.cells.front())}};
      for (std::size_t r = 1; r < row.cells.size(); ++r) {
        const ComparedCell& cell = row.cells[r];
        cells.push_back({value_text(cell)});
        if (cell.vs_baseline) {
          cells.push_back({times_text(cell.vs_baseline->speedup)});
          cells.push_back({verdict_text(*cell.vs_baseline), verdict_colour(*cell.vs_baseline)});
        } else {
          cells.push_back({"-"});
          cells.push_back({"n/a", Colour::dim});
        }
      }
      table.add_row(std::move(cells));
    }
    if (c.reports.size() > 1) {
      table.add_rule();
      std::vector<TextTable::Cell> cells{{"geomean"}, {""}};
      for (std::size_t r = 1; r < c.reports.size(); ++r) {
        const auto& mean = family.geomean_speedup[r];
        cells.push_back({""});
        cells.push_back({mean ? times_text(*mean) : "-", Colour::bold});
        cells.push_back({fmt::format("{} cases", family.geomean_cases[r])});
      }
      table.add_row(std::move(cells));
    }
    out += table.str(colour);
  }

  const std::vector<std::string> incomplete = incomplete_lines(c);
  if (!incomplete.empty()) {
    out += fmt::format("\nCases without a value in every report ({}):\n", incomplete.size());
    for (const std::string& line : incomplete) {
      out += "  " + line + "\n";
    }
  }
  out += "\n" + footnote(c) + "\n";
  return out;
}

std::string markdown_escape(const std::string& text) {
  std::string out;
  for (char ch : text) {
    if (ch == '|') {
      out += "\\|";
    } else {
      out += ch;
    }
  }
  return out;
}

std::string markdown_row(const std::vector<std::string>& cells) {
  std::string out = "|";
  for (const std::string& cell : cells) {
    out += " " + markdown_escape(cell) + " |";
  }
  return out + "\n";
}

// First column left-aligned; the others right-aligned (numbers) unless all_left.
std::string markdown_rule(std::size_t columns, bool all_left) {
  std::string out = "|";
  for (std::size_t i = 0; i < columns; ++i) {
    out += (i == 0 || all_left) ? " --- |" : " ---: |";
  }
  return out + "\n";
}

std::string format_markdown(const Comparison& c) {
  std::string out =
      fmt::format("## h2dbench compare ({} is the baseline)\n\n", c.reports.front().label);
  std::vector<std::string> header{""};
  for (const ComparedReport& report : c.reports) {
    header.push_back(report.label);
  }
  out += markdown_row(header) + markdown_rule(header.size(), /*all_left=*/true);
  for (const auto& [label, values] : machine_rows(c)) {
    std::vector<std::string> row{"**" + label + "**"};
    row.insert(row.end(), values.begin(), values.end());
    out += markdown_row(row);
  }
  for (const ComparedFamily& family : c.families) {
    out += "\n### " + metric_heading(family) + "\n\n";
    std::vector<std::string> columns{"case", c.reports.front().label};
    for (std::size_t r = 1; r < c.reports.size(); ++r) {
      columns.push_back(c.reports[r].label);
      columns.push_back(fmt::format("{} vs {}", c.reports[r].label, c.reports.front().label));
      columns.push_back("verdict");
    }
    out += markdown_row(columns) + markdown_rule(columns.size(), /*all_left=*/false);
    for (const ComparedCase& row : family.cases) {
      std::vector<std::string> cells{"`" + case_label(family, row.name) + "`",
                                     value_text(row.cells.front())};
      for (std::size_t r = 1; r < row.cells.size(); ++r) {
        const ComparedCell& cell = row.cells[r];
        cells.push_back(value_text(cell));
        cells.push_back(cell.vs_baseline ? times_text(cell.vs_baseline->speedup) : "-");
        cells.push_back(cell.vs_baseline ? verdict_text(*cell.vs_baseline) : "n/a");
      }
      out += markdown_row(cells);
    }
    if (c.reports.size() > 1) {
      std::vector<std::string> cells{"**geomean**", ""};
      for (std::size_t r = 1; r < c.reports.size(); ++r) {
        const auto& mean = family.geomean_speedup[r];
        cells.push_back("");
        cells.push_back(mean ? "**" + times_text(*mean) + "**" : "-");
        cells.push_back(fmt::format("{} cases", family.geomean_cases[r]));
      }
      out += markdown_row(cells);
    }
  }
  const std::vector<std::string> incomplete = incomplete_lines(c);
  if (!incomplete.empty()) {
    out += fmt::format("\n**Cases without a value in every report ({}):**\n\n", incomplete.size());
    for (const std::string& line : incomplete) {
      out += "- " + line + "\n";
    }
  }
  out += "\n" + footnote(c) + "\n";
  return out;
}

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

nlohmann::json optional_json(const std::optional<double>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

}  // namespace

CompareFormat parse_compare_format(const std::string& text) {
  if (text == "table") {
    return CompareFormat::table;
  }
  if (text == "markdown" || text == "md") {
    return CompareFormat::markdown;
  }
  if (text == "csv") {
    return CompareFormat::csv;
  }
  if (text == "json") {
    return CompareFormat::json;
  }
  throw UsageError(
      fmt::format("--format '{}' is not valid; use table, markdown, csv or json", text));
}

nlohmann::json comparison_to_json(const Comparison& c) {
  nlohmann::json reports = nlohmann::json::array();
  for (const ComparedReport& r : c.reports) {
    reports.push_back({{"label", r.label},
                       {"path", r.path},
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
        nlohmann::json entry{{"label", c.reports[r].label},
                             {"present", cell.present},
                             {"value", optional_json(cell.value)},
                             {"repetitions", cell.repetitions},
                             {"cv_pct", optional_json(cell.cv_pct)}};
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
  return {{"threshold_pct", c.verdict.threshold_pct},
          {"alpha", c.verdict.alpha},
          {"filter", c.filter},
          {"baseline", c.reports.front().label},
          {"reports", reports},
          {"families", families},
          {"regressions", reliable_regressions(c)}};
}

std::string format_comparison(const Comparison& comparison, CompareFormat format, bool colour) {
  switch (format) {
    case CompareFormat::table:
      return format_table(comparison, colour);
    case CompareFormat::markdown:
      return format_markdown(comparison);
    case CompareFormat::csv:
      return format_csv(comparison);
    case CompareFormat::json:
      return comparison_to_json(comparison).dump(2) + "\n";
  }
  return {};
}

}  // namespace h2d
