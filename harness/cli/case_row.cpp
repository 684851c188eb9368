#include "harness/cli/case_row.hpp"

#include "harness/core/number_text.hpp"
#include "harness/core/text_wrap.hpp"

namespace h2d {
namespace {

// Names up to this many columns share a column, so the figures line up under each other.
constexpr std::size_t kNameColumn = 72;
constexpr std::size_t kGap = 2;     // between the name and the figure
constexpr std::size_t kIndent = 4;  // a figure or a problem on a line of its own

// `text` cut to `limit` columns, ending in "..." when it was cut.
std::string cut(const std::string& text, std::size_t limit) {
  if (display_columns(text) <= limit) {
    return text;
  }
  return limit <= 3 ? prefix_of_columns(text, limit) : prefix_of_columns(text, limit - 3) + "...";
}

std::string figure_of(const CaseRow& row) {
  switch (row.outcome) {
    case CaseRow::Outcome::skipped:
      return "skipped: " + row.problem;
    case CaseRow::Outcome::failed:
      return "FAILED: " + row.problem;
    case CaseRow::Outcome::measured:
      break;
  }
  std::string figure = row.value ? short_number(*row.value) + " " + row.unit : "no figure";
  if (row.rel_ci_pct) {
    figure += " \u00b1" + percent_text(*row.rel_ci_pct, 1);
  }
  return figure;
}

}  // namespace

std::vector<std::string> format_case_row(const CaseRow& row, std::size_t width) {
  std::vector<std::string> lines;
  const std::string figure = figure_of(row);
  const std::string note = row.outcome == CaseRow::Outcome::measured ? row.note : "";
  const std::size_t name_columns = display_columns(row.name);
  // The figure and as much of the note as fits, in `room` columns.
  const auto figure_line = [&](std::size_t room) {
    return note.empty() || display_columns(figure) + kGap + 3 >= room
               ? figure
               : figure + std::string(kGap, ' ') + cut(note, room - display_columns(figure) - kGap);
  };
  const std::size_t padded = name_columns < kNameColumn ? kNameColumn : name_columns;
  if (padded + kGap + display_columns(figure) <= width) {
    const std::string pad(padded - name_columns + kGap, ' ');
    lines.push_back(row.name + pad + figure_line(width - padded - kGap));
    return lines;
  }
  if (name_columns + kGap + display_columns(figure) <= width) {
    lines.push_back(row.name + std::string(kGap, ' ') + figure_line(width - name_columns - kGap));
    return lines;
  }
  for (std::string& part : break_at(row.name, width, '/')) {
    lines.push_back(std::move(part));
  }
  const std::string indent(kIndent, ' ');
  if (row.outcome == CaseRow::Outcome::measured) {
    lines.push_back(indent + cut(figure_line(width - kIndent), width - kIndent));
    return lines;
  }
  for (std::string& part : break_at(figure, width - kIndent, ' ')) {
    lines.push_back(indent + part);
  }
  return lines;
}

}  // namespace h2d
