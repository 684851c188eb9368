#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace h2d {

// Text from elsewhere (a user's input, another program's output) made fit to quote inside one
// line of ours: control characters (a newline among them) become spaces, and past `most` columns
// it is cut, never inside a code point, and ends in "...".
std::string one_line_excerpt(std::string_view text, std::size_t most);

}  // namespace h2d
