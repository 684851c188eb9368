#include "harness/report/comparison_format.hpp"

#include <fmt/format.h>

#include "harness/core/number_text.hpp"
#include "harness/core/text_table.hpp"
#include "harness/core/usage_error.hpp"
#include "harness/report/comparison_cells.hpp"
#include "harness/report/comparison_csv.hpp"
#include "harness/report/comparison_markdown.hpp"

namespace h2d {
namespace {

using Colour = TextTable::Colour;

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

  const std::vector<std::string> one_sided = one_sided_lines(c);
  if (!one_sided.empty()) {
    out +=
        fmt::format("\nFamilies in one report only, nothing to compare ({}):\n", one_sided.size());
    for (const std::string& line : one_sided) {
      out += "  " + line + "\n";
    }
  }
  const std::vector<std::string> peers = peer_lines(c);
  if (!peers.empty()) {
    out += "\nThe peer tools on each side (run --peers):\n";
    for (const std::string& line : peers) {
      out += "  " + line + "\n";
    }
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
