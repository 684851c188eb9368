#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace h2d {

// What h2dbench prints fits a terminal of this many columns.
constexpr std::size_t kTerminalColumns = 120;

// Columns of UTF-8 text as a terminal shows them: one a code point ("±" is one, not two).
std::size_t display_columns(const std::string& text);

// The longest prefix of `text` of at most `limit` columns, never splitting a code point.
std::string prefix_of_columns(const std::string& text, std::size_t limit);

// `text` broken into pieces of at most `limit` columns: after the last `separator` in reach (a
// space is dropped at the break, any other separator ends its piece), else hard at the limit.
std::vector<std::string> break_at(std::string text, std::size_t limit, char separator);

// One long line of prose as lines of at most `width` columns, broken at spaces, the lines after
// the first indented by `indent` spaces; each line ends in '\n'. Shorter text comes back as it
// was, with its newline.
std::string wrap_line(const std::string& text, std::size_t width = kTerminalColumns,
                      std::size_t indent = 2);

}  // namespace h2d
