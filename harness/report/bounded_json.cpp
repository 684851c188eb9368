#include "harness/report/bounded_json.hpp"

#include <fmt/format.h>

#include <functional>
#include <iterator>
#include <utility>

namespace h2d {
namespace {

// A character iterator over the text that records how far the parser has read, so a refusal
// raised from a SAX event (which knows no offsets) can still say where it is.
class CountingIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  CountingIterator(const char* at, const char** reached) : at_(at), reached_(reached) {}
  reference operator*() const { return *at_; }
  CountingIterator& operator++() {
    *reached_ = ++at_;
    return *this;
  }
  CountingIterator operator++(int) {
    CountingIterator before = *this;
    ++*this;
    return before;
  }
  bool operator==(const CountingIterator& other) const { return at_ == other.at_; }
  bool operator!=(const CountingIterator& other) const { return at_ != other.at_; }

 private:
  const char* at_;
  const char** reached_;
};

// The SAX events of json::sax_parse, checked against the limits, then handed to nlohmann's own
// DOM builder (the one json::parse uses without a callback). json::parse with a callback would do
// the same checks, but its builder (3.11) scans the enclosing container at every object's end:
// quadratic, 5 s for an array of 100k objects.
class BoundedBuilder {
 public:
  using json = nlohmann::json;

  BoundedBuilder(json& result, const JsonLimits& limits, std::function<std::size_t()> offset)
      : dom_(result), limits_(limits), offset_(std::move(offset)) {}

  bool null() { return dom_.null(); }
  bool boolean(bool value) { return dom_.boolean(value); }
  bool number_integer(json::number_integer_t value) { return dom_.number_integer(value); }
  bool number_unsigned(json::number_unsigned_t value) { return dom_.number_unsigned(value); }
  bool number_float(json::number_float_t value, const json::string_t& text) {
    return dom_.number_float(value, text);
  }
  bool string(json::string_t& value) {
    check_length(value);
    return dom_.string(value);
  }
  bool binary(json::binary_t& value) { return dom_.binary(value); }
  bool key(json::string_t& value) {
    check_length(value);
    return dom_.key(value);
  }
  bool start_object(std::size_t elements) {
    enter();
    return dom_.start_object(elements);
  }
  bool end_object() {
    --depth_;
    return dom_.end_object();
  }
  bool start_array(std::size_t elements) {
    enter();
    return dom_.start_array(elements);
  }
  bool end_array() {
    --depth_;
    return dom_.end_array();
  }
  template <class Exception>
  bool parse_error(std::size_t position, const std::string& token, const Exception& error) {
    return dom_.parse_error(position, token, error);  // throws it
  }

 private:
  void enter() {
    if (depth_ >= limits_.max_depth) {
      throw JsonLimitError(offset_(), fmt::format("nested deeper than {} levels of arrays and "
                                                  "objects",
                                                  limits_.max_depth));
    }
    ++depth_;
  }
  void check_length(const json::string_t& value) const {
    if (value.size() > limits_.max_string_chars) {
      throw JsonLimitError(offset_(), fmt::format("a string of {} characters (at most {})",
                                                  value.size(), limits_.max_string_chars));
    }
  }

  nlohmann::detail::json_sax_dom_parser<json> dom_;
  const JsonLimits& limits_;
  std::function<std::size_t()> offset_;
  std::size_t depth_ = 0;
};

}  // namespace

nlohmann::json parse_bounded_json(const std::string& text, const JsonLimits& limits) {
  const char* reached = text.data();
  const auto offset = [&] { return static_cast<std::size_t>(reached - text.data()); };
  nlohmann::json result;
  BoundedBuilder builder(result, limits, offset);
  try {
    nlohmann::json::sax_parse(CountingIterator(text.data(), &reached),
                              CountingIterator(text.data() + text.size(), &reached), &builder);
  } catch (const nlohmann::json::out_of_range& error) {
    // 406: "number overflow parsing '1e400'": the only out_of_range the parser raises.
    const std::string what = error.what();
    const auto quote = what.find('\'');
    const std::string token =
        quote == std::string::npos ? std::string("a number") : what.substr(quote);
    throw JsonLimitError(offset(), fmt::format("{} is beyond the range of a double (about 1.8e308)",
                                               token.substr(0, 64)));
  }
  return result;
}

}  // namespace h2d
