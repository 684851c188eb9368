#pragma once

#include <string>
#include <vector>

namespace h2d {

// A terminal table: columns padded to their widest cell (counted in characters, not UTF-8
// bytes), first column left-aligned, the others right-aligned unless told otherwise. Colour is
// applied after padding so escape codes never break alignment.
class TextTable {
 public:
  enum class Colour { none, green, red, yellow, dim, bold };
  struct Cell {
    std::string text;
    Colour colour = Colour::none;
  };

  explicit TextTable(std::vector<std::string> header, std::vector<bool> left_aligned = {});
  void add_row(std::vector<Cell> row);
  void add_rule();  // a dashed line across the table
  std::string str(bool use_colour, const std::string& indent = "") const;

 private:
  std::vector<std::string> header_;
  std::vector<bool> left_;
  std::vector<std::vector<Cell>> rows_;  // an empty row is a rule
};

// Characters in a UTF-8 string (code points), for alignment.
std::size_t display_width(const std::string& text);

// Wraps `text` in the ANSI codes of `colour` (nothing for Colour::none).
std::string paint(const std::string& text, TextTable::Colour colour);

}  // namespace h2d
