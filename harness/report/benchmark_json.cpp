#include "harness/report/benchmark_json.hpp"

#include <array>
#include <string_view>

namespace h2d {

nlohmann::json parse_benchmark_json(const std::string& text) {
  static constexpr std::array<std::string_view, 4> kNonFinite{"-Infinity", "Infinity", "-NaN",
                                                              "NaN"};
  std::string clean;
  clean.reserve(text.size());
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      clean += c;
      if (c == '\\' && i + 1 < text.size()) {
        clean += text[++i];
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
      clean += c;
      continue;
    }
    bool replaced = false;
    for (std::string_view token : kNonFinite) {
      if (std::string_view(text).substr(i, token.size()) == token) {
        clean += "null";
        i += token.size() - 1;
        replaced = true;
        break;
      }
    }
    if (!replaced) {
      clean += c;
    }
  }
  return nlohmann::json::parse(clean);
}

}  // namespace h2d
