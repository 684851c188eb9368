#include "harness/core/text_table.hpp"

#include <algorithm>

namespace h2d {

std::size_t display_width(const std::string& text) {
  std::size_t width = 0;
  for (unsigned char c : text) {
    if ((c & 0xC0) != 0x80) {  // not a UTF-8 continuation byte
      ++width;
    }
  }
  return width;
}

std::string paint(const std::string& text, TextTable::Colour colour) {
  const char* code = "";
  switch (colour) {
    case TextTable::Colour::none:
      return text;
    case TextTable::Colour::green:
      code = "\033[32m";
      break;
    case TextTable::Colour::red:
      code = "\033[31m";
      break;
    case TextTable::Colour::yellow:
      code = "\033[33m";
      break;
    case TextTable::Colour::dim:
      code = "\033[2m";
      break;
    case TextTable::Colour::bold:
      code = "\033[1m";
      break;
  }
  return code + text + "\033[0m";
}

TextTable::TextTable(std::vector<std::string> header, std::vector<bool> left_aligned)
    : header_(std::move(header)), left_(std::move(left_aligned)) {
  left_.resize(header_.size(), false);
  if (!left_.empty()) {
    left_[0] = true;
  }
}

void TextTable::add_row(std::vector<Cell> row) {
  row.resize(header_.size());
  rows_.push_back(std::move(row));
}

void TextTable::add_rule() {
  rows_.emplace_back();
}

std::string TextTable::str(bool use_colour, const std::string& indent) const {
  std::vector<std::size_t> widths(header_.size(), 0);
  for (std::size_t c = 0; c < header_.size(); ++c) {
    widths[c] = display_width(header_[c]);
  }
  for (const auto& row : rows_) {
    for (std::size_t c = 0; c < row.size(); ++c) {
      widths[c] = std::max(widths[c], display_width(row[c].text));
    }
  }
  std::size_t total = 0;
  for (std::size_t w : widths) {
    total += w + 2;
  }
  total = total >= 2 ? total - 2 : 0;

  const auto line = [&](const std::vector<Cell>& cells) {
    std::string out = indent;
    for (std::size_t c = 0; c < cells.size(); ++c) {
      const std::size_t pad = widths[c] - display_width(cells[c].text);
      std::string padded =
          left_[c] ? cells[c].text + std::string(pad, ' ') : std::string(pad, ' ') + cells[c].text;
      if (c + 1 == cells.size() && left_[c]) {
        padded = cells[c].text;  // no trailing blanks
      }
      out += use_colour ? paint(padded, cells[c].colour) : padded;
      if (c + 1 < cells.size()) {
        out += "  ";
      }
    }
    return out + "\n";
  };
  std::vector<Cell> header_cells;
  for (const auto& text : header_) {
    header_cells.push_back({text, Colour::bold});
  }
  std::string out = line(header_cells);
  out += indent + std::string(total, '-') + "\n";
  for (const auto& row : rows_) {
    out += row.empty() ? indent + std::string(total, '-') + "\n" : line(row);
  }
  return out;
}

}  // namespace h2d
