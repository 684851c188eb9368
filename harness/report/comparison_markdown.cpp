#include "harness/report/comparison_markdown.hpp"

#include <fmt/format.h>

#include "harness/core/number_text.hpp"
#include "harness/report/comparison_cells.hpp"

namespace h2d {
namespace {

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

}  // namespace

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
  const std::vector<std::string> one_sided = one_sided_lines(c);
  if (!one_sided.empty()) {
    out += fmt::format("\n**Families in one report only, nothing to compare ({}):**\n\n",
                       one_sided.size());
    for (const std::string& line : one_sided) {
      out += "- " + line + "\n";
    }
  }
  const std::vector<std::string> peers = peer_lines(c);
  if (!peers.empty()) {
    out += "\n**The peer tools on each side (run --peers):**\n\n";
    for (const std::string& line : peers) {
      out += "- " + line + "\n";
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

}  // namespace h2d
