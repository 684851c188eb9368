#include "harness/core/text_excerpt.hpp"

#include <algorithm>
#include <cctype>

#include "harness/core/text_wrap.hpp"

namespace h2d {

std::string one_line_excerpt(std::string_view text, std::size_t most) {
  std::string line(text);
  std::replace_if(
      line.begin(), line.end(),
      [](char c) { return std::iscntrl(static_cast<unsigned char>(c)) != 0; }, ' ');
  if (display_columns(line) <= most) {
    return line;
  }
  return prefix_of_columns(line, most) + "...";
}

}  // namespace h2d
