#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <stdexcept>
#include <string>

namespace h2d {

// What a document read from elsewhere may hold. nlohmann's parser itself is iterative, but a
// document nested 60,000 deep overflows the stack in everything that walks it afterwards
// (copies, dumps, destructors of older versions); a string of megabytes makes regexes and
// tables crawl.
struct JsonLimits {
  std::size_t max_depth = 0;         // arrays and objects inside each other
  std::size_t max_string_chars = 0;  // any string, keys included
};

// Why a document was refused, and where: the byte offset the parser had reached.
class JsonLimitError : public std::runtime_error {
 public:
  JsonLimitError(std::size_t byte, const std::string& reason)
      : std::runtime_error(reason), byte_(byte) {}
  std::size_t byte() const { return byte_; }

 private:
  std::size_t byte_;
};

// Parses `text` within `limits`, in time linear in its size. Nesting and string lengths are
// checked while parsing, so a refused document is never built whole; numbers beyond double's
// range (1e400) are refused rather than thrown as nlohmann's out_of_range. Throws JsonLimitError
// for those, and nlohmann::json::parse_error for text that is not JSON.
nlohmann::json parse_bounded_json(const std::string& text, const JsonLimits& limits);

}  // namespace h2d
