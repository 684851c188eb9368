#include "harness/core/text_wrap.hpp"

namespace h2d {
namespace {

bool starts_code_point(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
}

}  // namespace

std::size_t display_columns(const std::string& text) {
  std::size_t count = 0;
  for (const char c : text) {
    count += starts_code_point(c) ? 1 : 0;
  }
  return count;
}

std::string prefix_of_columns(const std::string& text, std::size_t limit) {
  std::size_t seen = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (starts_code_point(text[i])) {
      if (seen == limit) {
        return text.substr(0, i);
      }
      ++seen;
    }
  }
  return text;
}

std::vector<std::string> break_at(std::string text, std::size_t limit, char separator) {
  std::vector<std::string> pieces;
  if (limit == 0) {
    pieces.push_back(text);
    return pieces;
  }
  while (display_columns(text) > limit) {
    const std::string head = prefix_of_columns(text, limit);
    const std::size_t at = head.rfind(separator);
    if (at == std::string::npos || at == 0) {
      pieces.push_back(head);
      text = text.substr(head.size());
      continue;
    }
    // A space is dropped at the break; a '/' stays at the end of its piece.
    pieces.push_back(head.substr(0, separator == ' ' ? at : at + 1));
    text = text.substr(at + 1);
  }
  pieces.push_back(text);
  return pieces;
}

std::string wrap_line(const std::string& text, std::size_t width, std::size_t indent) {
  std::string body = text;
  while (!body.empty() && body.back() == '\n') {
    body.pop_back();
  }
  if (display_columns(body) <= width || width <= indent + 1) {
    return body + "\n";
  }
  std::string out;
  const std::vector<std::string> first = break_at(body, width, ' ');
  out += first.front() + "\n";
  std::string rest;
  for (std::size_t i = 1; i < first.size(); ++i) {
    rest += (i > 1 ? " " : "") + first[i];
  }
  for (const std::string& piece : break_at(rest, width - indent, ' ')) {
    out += std::string(indent, ' ') + piece + "\n";
  }
  return out;
}

}  // namespace h2d
