#include "harness/core/sample_spec.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <nlohmann/json.hpp>
#include <set>
#include <utility>

#include "harness/core/bounded_file.hpp"
#include "harness/core/pattern.hpp"
#include "harness/core/text_excerpt.hpp"
#include "harness/core/usage_error.hpp"

namespace h2d {
namespace {

struct DTypeName {
  DType dtype;
  std::string_view name;
  std::size_t bytes;
};

// The dtypes, declared once: their names as NumPy and PyTorch write them, and their sizes.
constexpr std::array<DTypeName, 10> kDTypes{{
    {DType::boolean, "bool", 1},
    {DType::uint8, "uint8", 1},
    {DType::int8, "int8", 1},
    {DType::int16, "int16", 2},
    {DType::int32, "int32", 4},
    {DType::int64, "int64", 8},
    {DType::float16, "float16", 2},
    {DType::bfloat16, "bfloat16", 2},
    {DType::float32, "float32", 4},
    {DType::float64, "float64", 8},
}};

constexpr std::size_t kMostSpecFileBytes = std::size_t{4} << 20;
constexpr std::size_t kMostDimensions = 16;
constexpr const char* kFileForm =
    "write {\"members\": [{\"name\": ..., \"shape\": [...], \"dtype\": ...}]}";

// A piece of the user's input quoted in a message: one line, not the whole 4 MiB of it.
std::string quote_input(std::string_view text) {
  constexpr std::size_t kMostQuoted = 60;
  return "'" + one_line_excerpt(text, kMostQuoted) + "'";
}

// a * b, or nullopt past `limit` (and so never an overflow).
std::optional<std::size_t> product_within(std::size_t a, std::size_t b, std::size_t limit) {
  if (b != 0 && a > limit / b) {
    return std::nullopt;
  }
  return a * b;
}

std::size_t bytes_at(const MemberSpec& member, bool high) {
  std::size_t bytes = dtype_bytes(member.dtype);
  for (const Dimension& dimension : member.shape) {
    bytes *= high ? dimension.high : dimension.low;
  }
  return bytes;
}

std::string dimension_text(const Dimension& dimension) {
  return dimension.varies() ? fmt::format("{}..{}", dimension.low, dimension.high)
                            : std::to_string(dimension.low);
}

// Says where a problem is: "--sample: member 2 ('boxes')".
class SpecErrors {
 public:
  explicit SpecErrors(std::string_view flag) : flag_(flag) {}
  void at_member(std::size_t index, std::string name) {
    index_ = index;
    name_ = std::move(name);
  }
  [[noreturn]] void fail(const std::string& problem) const {
    const std::string where = name_.empty()
                                  ? fmt::format("member {}", index_ + 1)
                                  : fmt::format("member {} ({})", index_ + 1, quote_input(name_));
    throw UsageError(fmt::format("{}: {}: {}", flag_, where, problem));
  }
  [[noreturn]] void fail_whole(const std::string& problem) const {
    throw UsageError(fmt::format("{}: {}", flag_, problem));
  }

 private:
  std::string flag_;
  std::size_t index_ = 0;
  std::string name_;
};

bool all_digits(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
  });
}

// A count in a dimension: digits only, at most kMostSampleBytes (larger never fits a sample).
std::optional<std::size_t> count_of(std::string_view text) {
  if (!all_digits(text) || text.size() > 12) {
    return std::nullopt;
  }
  std::size_t value = 0;
  for (const char c : text) {
    value = value * 10 + static_cast<std::size_t>(c - '0');
  }
  return value;
}

Dimension parse_dimension(std::string_view text, std::size_t position, const SpecErrors& errors) {
  const auto fail = [&](const std::string& problem) {
    errors.fail(fmt::format("dimension {} {}: {}", position + 1, quote_input(text), problem));
  };
  const std::size_t dots = text.find("..");
  if (dots == std::string_view::npos) {
    const auto value = count_of(text);
    if (!value) {
      fail(all_digits(text) ? "too large: a sample is at most 1 GiB"
                            : "not a whole number; a dimension is N (1 or more) or A..B (A <= B, "
                              "varying per sample)");
    }
    if (*value == 0) {
      fail("zero; a fixed dimension is 1 or more (a member that may be empty is 0..B)");
    }
    return {*value, *value};
  }
  const auto low = count_of(text.substr(0, dots));
  const auto high = count_of(text.substr(dots + 2));
  if (!low || !high) {
    fail("A..B needs two whole numbers (A 0 or more, B at least A and 1 or more)");
  }
  if (*high < *low) {
    fail(fmt::format("{} is below {}; write A..B with A <= B", *high, *low));
  }
  if (*high == 0) {
    fail("0..0 is always empty; B must be 1 or more");
  }
  return {*low, *high};
}

bool valid_name(std::string_view name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name.front())) != 0) {
    return false;
  }
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '.' || c == '-';
  });
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find(separator, start);
    parts.push_back(text.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) {
      return parts;
    }
    start = end + 1;
  }
}

DType parse_dtype(std::string_view text, const SpecErrors& errors) {
  const auto dtype = dtype_from_string(text);
  if (!dtype) {
    errors.fail(fmt::format("unknown dtype {}; valid: {}", quote_input(text), valid_dtypes()));
  }
  return *dtype;
}

void check_name(std::string_view name, const SpecErrors& errors) {
  if (!valid_name(name)) {
    errors.fail(
        fmt::format("the name {} is not one; a name is letters, digits, '_', '.' or "
                    "'-', not starting with a digit",
                    quote_input(name)));
  }
}

std::vector<Dimension> parse_shape(std::string_view text, const SpecErrors& errors) {
  std::vector<Dimension> shape;
  if (text.empty()) {
    return shape;  // a scalar
  }
  const auto dimensions = split(text, 'x');
  if (dimensions.size() > kMostDimensions) {
    errors.fail(fmt::format("{} dimensions; at most {}", dimensions.size(), kMostDimensions));
  }
  for (std::size_t i = 0; i < dimensions.size(); ++i) {
    shape.push_back(parse_dimension(dimensions[i], i, errors));
  }
  return shape;
}

// Names unique, bytes within kMostSampleBytes, members within kMostMembers: the checks a spec
// from text and one from a file share.
void check_whole(const std::vector<MemberSpec>& members, SpecErrors& errors) {
  if (members.empty()) {
    errors.fail_whole("no members; write name:shape:dtype, such as image:3x224x224:uint8");
  }
  std::set<std::string> names;
  std::size_t total = 0;
  for (std::size_t i = 0; i < members.size(); ++i) {
    errors.at_member(i, members[i].name);
    if (!names.insert(members[i].name).second) {
      errors.fail("the name is given twice; every member needs its own");
    }
    std::size_t bytes = dtype_bytes(members[i].dtype);
    for (const Dimension& dimension : members[i].shape) {
      const auto grown = product_within(bytes, dimension.high, kMostSampleBytes);
      if (!grown || *grown > kMostSampleBytes) {
        errors.fail(fmt::format("over {} GiB at its largest; a sample is at most 1 GiB",
                                kMostSampleBytes >> 30));
      }
      bytes = *grown;
    }
    total += bytes;
    if (total > kMostSampleBytes) {
      errors.fail_whole(
          fmt::format("the sample is over 1 GiB at its largest (at member {}, {}); a sample is "
                      "at most 1 GiB",
                      i + 1, quote_input(members[i].name)));
    }
  }
}

// One member, from the text or the file alike: its name checked first (so that later messages
// name it), then its shape (`parse_shape`, whose errors now name the member) and its dtype.
template <typename ParseShape>
MemberSpec member_of(std::size_t index, std::string_view name, std::string_view dtype,
                     SpecErrors& errors, const ParseShape& parse_shape) {
  errors.at_member(index, "");
  check_name(name, errors);
  errors.at_member(index, std::string(name));
  MemberSpec member;
  member.name = std::string(name);
  member.shape = parse_shape();
  member.dtype = parse_dtype(dtype, errors);
  return member;
}

SampleSpec parse_members(std::string_view text, std::string_view flag) {
  SpecErrors errors(flag);
  if (text.empty()) {
    errors.fail_whole(fmt::format(
        "empty; give a named sample ({}), members as name:shape:dtype separated by commas, or "
        "@FILE",
        [] {
          std::string names;
          for (const SampleSpec& named : named_samples()) {
            names += (names.empty() ? "" : ", ") + named.name;
          }
          return names;
        }()));
  }
  const auto parts = split(text, ',');
  if (parts.size() > kMostMembers) {
    errors.fail_whole(fmt::format("{} members; at most {}", parts.size(), kMostMembers));
  }
  SampleSpec spec;
  spec.name = "custom";
  for (std::size_t i = 0; i < parts.size(); ++i) {
    errors.at_member(i, "");
    if (parts[i].empty()) {
      errors.fail("empty; write name:shape:dtype (the shape empty for a scalar: label::int64)");
    }
    const auto fields = split(parts[i], ':');
    if (fields.size() != 3) {
      errors.fail(
          fmt::format("{} has {} field{}; write name:shape:dtype (image:3x224x224:uint8, "
                      "label::int64)",
                      quote_input(parts[i]), fields.size(), fields.size() == 1 ? "" : "s"));
    }
    spec.members.push_back(
        member_of(i, fields[0], fields[2], errors, [&] { return parse_shape(fields[1], errors); }));
  }
  check_whole(spec.members, errors);
  return spec;
}

Dimension dimension_from_json(const nlohmann::json& value, std::size_t position,
                              const SpecErrors& errors) {
  if (value.is_number_unsigned()) {
    return parse_dimension(std::to_string(value.get<std::uint64_t>()), position, errors);
  }
  if (value.is_string()) {
    return parse_dimension(value.get<std::string>(), position, errors);
  }
  errors.fail(fmt::format("dimension {} is {}; a dimension is a whole number or \"A..B\"",
                          position + 1, one_line_excerpt(value.dump(), 60)));
}

SampleSpec parse_file(const std::string& path, std::string_view flag) {
  const std::string what = fmt::format("{} @FILE", flag);
  const std::string text = read_bounded_file(path, what, kMostSpecFileBytes);
  SpecErrors errors(flag);
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& error) {
    errors.fail_whole(fmt::format("'{}' is not JSON ({}); {}", path,
                                  one_line_excerpt(error.what(), 160), kFileForm));
  }
  if (!document.is_object() || !document.contains("members") || !document["members"].is_array()) {
    errors.fail_whole(fmt::format("'{}' has no \"members\" list; {}", path, kFileForm));
  }
  const nlohmann::json& members = document["members"];
  if (members.size() > kMostMembers) {
    errors.fail_whole(
        fmt::format("'{}' has {} members; at most {}", path, members.size(), kMostMembers));
  }
  SampleSpec spec;
  spec.name = "custom";
  for (std::size_t i = 0; i < members.size(); ++i) {
    errors.at_member(i, "");
    const nlohmann::json& entry = members[i];
    if (!entry.is_object() || !entry.contains("name") || !entry["name"].is_string() ||
        !entry.contains("dtype") || !entry["dtype"].is_string() ||
        (entry.contains("shape") && !entry["shape"].is_array())) {
      errors.fail(
          fmt::format("{} in '{}'; a member is {{\"name\": string, \"shape\": [dimensions], "
                      "\"dtype\": string}}",
                      one_line_excerpt(entry.dump(), 80), path));
    }
    const auto shape = [&] {
      std::vector<Dimension> dimensions;
      if (!entry.contains("shape")) {
        return dimensions;  // a scalar
      }
      const nlohmann::json& given = entry["shape"];
      if (given.size() > kMostDimensions) {
        errors.fail(fmt::format("{} dimensions; at most {}", given.size(), kMostDimensions));
      }
      for (std::size_t d = 0; d < given.size(); ++d) {
        dimensions.push_back(dimension_from_json(given[d], d, errors));
      }
      return dimensions;
    };
    spec.members.push_back(member_of(i, entry["name"].get<std::string>(),
                                     entry["dtype"].get<std::string>(), errors, shape));
  }
  check_whole(spec.members, errors);
  return spec;
}

// splitmix64 over the four coordinates of one drawn dimension.
std::uint64_t draw(std::uint64_t seed, std::size_t sample, std::size_t member, std::size_t dim) {
  std::uint64_t value = pattern_word(seed, sample);
  value = pattern_word(value, member);
  return pattern_word(value, dim);
}

}  // namespace

std::string_view to_string(DType dtype) {
  for (const DTypeName& entry : kDTypes) {
    if (entry.dtype == dtype) {
      return entry.name;
    }
  }
  return "unknown";
}

std::size_t dtype_bytes(DType dtype) {
  for (const DTypeName& entry : kDTypes) {
    if (entry.dtype == dtype) {
      return entry.bytes;
    }
  }
  return 0;
}

std::optional<DType> dtype_from_string(std::string_view text) {
  for (const DTypeName& entry : kDTypes) {
    if (entry.name == text) {
      return entry.dtype;
    }
  }
  return std::nullopt;
}

std::string valid_dtypes() {
  std::string names;
  for (const DTypeName& entry : kDTypes) {
    names += (names.empty() ? "" : ", ") + std::string(entry.name);
  }
  return names;
}

bool MemberSpec::varies() const {
  return std::any_of(shape.begin(), shape.end(), [](const Dimension& d) { return d.varies(); });
}

std::size_t MemberSpec::min_bytes() const {
  return bytes_at(*this, false);
}

std::size_t MemberSpec::max_bytes() const {
  return bytes_at(*this, true);
}

std::string MemberSpec::text() const {
  std::string dims;
  for (const Dimension& dimension : shape) {
    dims += (dims.empty() ? "" : "x") + dimension_text(dimension);
  }
  return fmt::format("{}:{}:{}", name, dims, to_string(dtype));
}

bool SampleSpec::varies() const {
  return std::any_of(members.begin(), members.end(),
                     [](const MemberSpec& m) { return m.varies(); });
}

std::size_t SampleSpec::min_bytes() const {
  std::size_t bytes = 0;
  for (const MemberSpec& member : members) {
    bytes += member.min_bytes();
  }
  return bytes;
}

std::size_t SampleSpec::max_bytes() const {
  std::size_t bytes = 0;
  for (const MemberSpec& member : members) {
    bytes += member.max_bytes();
  }
  return bytes;
}

std::string SampleSpec::text() const {
  std::string joined;
  for (const MemberSpec& member : members) {
    joined += (joined.empty() ? "" : ",") + member.text();
  }
  return joined;
}

const std::vector<SampleSpec>& named_samples() {
  static const std::vector<SampleSpec> named = [] {
    const std::vector<std::pair<std::string, std::string>> specs{
        {"tile", "image:3x512x512:float32,mask:512x512:uint8,ids:3:int64"},
        {"imagenet", "image:3x224x224:uint8,label::int64"},
        // RF-DETR's detection sample: the image and a target of per-object and per-image fields.
        {"detection",
         "image:3x560x560:float32,boxes:0..100x4:float32,labels:0..100:int64,"
         "area:0..100:float32,iscrowd:0..100:int64,orig_size:2:int64,size:2:int64"},
        {"tokens", "input_ids:1..512:int64,attention_mask:1..512:int64"},
    };
    std::vector<SampleSpec> samples;
    for (const auto& [name, text] : specs) {
      SampleSpec spec = parse_members(text, "named sample");
      spec.name = name;
      samples.push_back(std::move(spec));
    }
    return samples;
  }();
  return named;
}

std::optional<std::size_t> image_member(const SampleSpec& spec) {
  constexpr std::size_t kChannels = 3;  // the normalization's per-channel statistics are RGB's
  for (std::size_t i = 0; i < spec.members.size(); ++i) {
    const MemberSpec& member = spec.members[i];
    if (member.shape.size() == 3 && !member.varies() && member.shape[0].low == kChannels) {
      return i;
    }
  }
  return std::nullopt;
}

std::string describe_sample(const SampleSpec& spec) {
  const std::string bytes = spec.varies()
                                ? fmt::format("{}..{}", spec.min_bytes(), spec.max_bytes())
                                : std::to_string(spec.max_bytes());
  return fmt::format("{} ({} member{}, {} bytes per sample): {}", spec.name, spec.members.size(),
                     spec.members.size() == 1 ? "" : "s", bytes, spec.text());
}

SampleSpec parse_sample(const std::string& text, std::string_view flag) {
  for (const SampleSpec& named : named_samples()) {
    if (named.name == text) {
      return named;
    }
  }
  if (!text.empty() && text.front() == '@') {
    if (text.size() == 1) {
      throw UsageError(fmt::format("{}: '@' names no file; write @FILE (a JSON file)", flag));
    }
    return parse_file(text.substr(1), flag);
  }
  return parse_members(text, flag);
}

std::vector<std::size_t> draw_shape(const MemberSpec& member, std::size_t member_index,
                                    std::uint64_t seed, std::size_t sample) {
  std::vector<std::size_t> shape;
  for (std::size_t d = 0; d < member.shape.size(); ++d) {
    const Dimension& dimension = member.shape[d];
    if (!dimension.varies()) {
      shape.push_back(dimension.low);
      continue;
    }
    const std::uint64_t span = dimension.high - dimension.low + 1;
    shape.push_back(dimension.low +
                    static_cast<std::size_t>(draw(seed, sample, member_index, d) % span));
  }
  return shape;
}

std::size_t drawn_bytes(const MemberSpec& member, std::size_t member_index, std::uint64_t seed,
                        std::size_t sample) {
  std::size_t bytes = dtype_bytes(member.dtype);
  for (const std::size_t extent : draw_shape(member, member_index, seed, sample)) {
    bytes *= extent;
  }
  return bytes;
}

}  // namespace h2d
