#include "harness/report/bounded_json.hpp"

#include <fmt/format.h>

#include <iterator>

namespace h2d {
namespace {

// A character iterator over the text that records how far the parser has read, so a refusal
// raised from the parser callback (which knows no offsets) can still say where it is.
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

}  // namespace

nlohmann::json parse_bounded_json(const std::string& text, const JsonLimits& limits) {
  const char* reached = text.data();
  const auto offset = [&] { return static_cast<std::size_t>(reached - text.data()); };
  const auto check = [&](int depth, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
    using Event = nlohmann::json::parse_event_t;
    if ((event == Event::object_start || event == Event::array_start) &&
        static_cast<std::size_t>(depth) >= limits.max_depth) {
      throw JsonLimitError(offset(), fmt::format("nested deeper than {} levels of arrays and "
                                                 "objects",
                                                 limits.max_depth));
    }
    if ((event == Event::key || event == Event::value) && parsed.is_string() &&
        parsed.get_ref<const std::string&>().size() > limits.max_string_chars) {
      throw JsonLimitError(offset(), fmt::format("a string of {} characters (at most {})",
                                                 parsed.get_ref<const std::string&>().size(),
                                                 limits.max_string_chars));
    }
    return true;
  };
  try {
    return nlohmann::json::parse(CountingIterator(text.data(), &reached),
                                 CountingIterator(text.data() + text.size(), &reached), check);
  } catch (const nlohmann::json::out_of_range& error) {
    // 406: "number overflow parsing '1e400'": the only out_of_range the parser raises.
    const std::string what = error.what();
    const auto quote = what.find('\'');
    const std::string token =
        quote == std::string::npos ? std::string("a number") : what.substr(quote);
    throw JsonLimitError(offset(), fmt::format("{} is beyond the range of a double (about 1.8e308)",
                                               token.substr(0, 64)));
  }
}

}  // namespace h2d
