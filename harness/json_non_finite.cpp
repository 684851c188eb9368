#include "harness/json_non_finite.hpp"

#include <array>

namespace h2d {

std::string null_non_finite_numbers(std::string_view json) {
  static constexpr std::array<std::string_view, 6> kTokens{"-Infinity", "Infinity", "-NaN",
                                                           "NaN",       "-nan",     "nan"};
  std::string out;
  out.reserve(json.size());
  bool in_string = false;
  for (std::size_t i = 0; i < json.size(); ++i) {
    const char c = json[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < json.size()) {
        out += json[++i];  // an escaped character, a quote included
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
      out += c;
      continue;
    }
    bool replaced = false;
    for (std::string_view token : kTokens) {
      if (json.substr(i, token.size()) == token) {
        out += "null";
        i += token.size() - 1;
        replaced = true;
        break;
      }
    }
    if (!replaced) {
      out += c;
    }
  }
  return out;
}

}  // namespace h2d
