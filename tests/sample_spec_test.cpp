// The sample spec: one grammar for the user's batch (harness/core/sample_spec), its named samples,
// its bad inputs (each one line naming the member and what is valid) and a fuzz test.

#include "harness/core/sample_spec.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <string>

#include "harness/core/usage_error.hpp"

namespace h2d {
namespace {

// The message parse_sample throws for `text`, or "" when it parses.
std::string error_of(const std::string& text) {
  try {
    parse_sample(text);
  } catch (const UsageError& error) {
    return error.what();
  }
  return "";
}

TEST(SampleSpec, ReadsMembersAsPolygraphyWritesThem) {
  const SampleSpec spec =
      parse_sample("image:3x224x224:uint8,boxes:0..100x4:float32,labels:0..100:int64,id::int64");
  EXPECT_EQ(spec.name, "custom");
  ASSERT_EQ(spec.members.size(), 4u);
  EXPECT_EQ(spec.members[0].name, "image");
  EXPECT_EQ(spec.members[0].dtype, DType::uint8);
  EXPECT_EQ(spec.members[0].max_bytes(), 3u * 224 * 224);
  EXPECT_FALSE(spec.members[0].varies());
  EXPECT_TRUE(spec.members[1].varies());
  EXPECT_EQ(spec.members[1].min_bytes(), 0u);
  EXPECT_EQ(spec.members[1].max_bytes(), 100u * 4 * 4);
  EXPECT_TRUE(spec.members[3].shape.empty()) << "a scalar";
  EXPECT_EQ(spec.members[3].max_bytes(), 8u);
  EXPECT_EQ(spec.min_bytes(), 3u * 224 * 224 + 8);
  EXPECT_EQ(spec.max_bytes(), 3u * 224 * 224 + 1600 + 800 + 8);
  EXPECT_TRUE(spec.varies());
}

TEST(SampleSpec, EveryDtypeHasItsSize) {
  const std::vector<std::pair<std::string, std::size_t>> sizes{
      {"bool", 1},  {"uint8", 1},   {"int8", 1},     {"int16", 2},   {"int32", 4},
      {"int64", 8}, {"float16", 2}, {"bfloat16", 2}, {"float32", 4}, {"float64", 8}};
  for (const auto& [name, bytes] : sizes) {
    const SampleSpec spec = parse_sample("x:2:" + name);
    EXPECT_EQ(spec.max_bytes(), 2 * bytes) << name;
    EXPECT_EQ(to_string(spec.members[0].dtype), name);
  }
}

TEST(SampleSpec, TheTextReadsBackToTheSameMembers) {
  for (const SampleSpec& named : named_samples()) {
    const SampleSpec again = parse_sample(named.text());
    EXPECT_EQ(again.text(), named.text()) << named.name;
    EXPECT_EQ(again.max_bytes(), named.max_bytes()) << named.name;
  }
  EXPECT_EQ(parse_sample("a:3..3x2:int8").text(), "a:3x2:int8") << "a range of one is fixed";
}

TEST(SampleSpec, NamedSamplesAreTheCommonBatches) {
  EXPECT_EQ(parse_sample("tile").text(), "image:3x512x512:float32,mask:512x512:uint8,ids:3:int64");
  EXPECT_EQ(parse_sample("imagenet").max_bytes(), 3u * 224 * 224 + 8);
  const SampleSpec detection = parse_sample("detection");
  EXPECT_EQ(detection.name, "detection");
  EXPECT_EQ(detection.members.size(), 7u) << "the image and 6 small members";
  EXPECT_TRUE(detection.varies());
  const SampleSpec tokens = parse_sample("tokens");
  EXPECT_TRUE(tokens.members[0].varies());
}

TEST(SampleSpec, AFileHoldsTheSameMembers) {
  const std::string path = ::testing::TempDir() + "h2d_sample.json";
  std::ofstream(path) << R"({"members": [
      {"name": "image", "shape": [3, 224, 224], "dtype": "uint8"},
      {"name": "boxes", "shape": ["0..100", 4], "dtype": "float32"},
      {"name": "label", "shape": [], "dtype": "int64"}]})";
  const SampleSpec spec = parse_sample("@" + path);
  EXPECT_EQ(spec.text(), "image:3x224x224:uint8,boxes:0..100x4:float32,label::int64");
}

TEST(SampleSpec, EveryBadInputIsOneLineNamingTheMemberAndWhatIsValid) {
  const std::vector<std::pair<std::string, std::string>> cases{
      {"image:3x224x224:uint7",
       "--sample: member 1 ('image'): unknown dtype 'uint7'; valid: bool,"},
      {"a:0x4:int8", "member 1 ('a'): dimension 1 '0': zero"},
      {"a:-3:int8", "member 1 ('a'): dimension 1 '-3': not a whole number"},
      {"a:2x5..3:int8", "member 1 ('a'): dimension 2 '5..3': 3 is below 5"},
      {"a:2:int8,a:3:int8", "member 2 ('a'): the name is given twice"},
      {"a:2:int8,,b:1:int8", "member 2: empty"},
      {"a:2:int8,b:1", "member 2: 'b:1' has 2 fields"},
      {"", "--sample: empty; give a named sample (tile, imagenet, detection, tokens)"},
      {"a:1024x1024x1025:uint8", "member 1 ('a'): over 1 GiB at its largest"},
      {"a:512x1024x1024:uint8,b:512x1024x1024:uint8,c:1:uint8",
       "the sample is over 1 GiB at its largest (at member 3, 'c')"},
      {"1a:2:int8", "member 1: the name '1a' is not one"},
      {"a:2x:int8", "dimension 2 '': not a whole number"},
      {"a:0..0:int8", "0..0 is always empty"},
      {"a:99999999999999999999:int8", "too large"},
      {"@", "'@' names no file"},
      {"@/nonexistent/h2d_sample.json", "--sample @FILE '/nonexistent/h2d_sample.json'"},
  };
  for (const auto& [text, expected] : cases) {
    const std::string message = error_of(text);
    EXPECT_NE(message.find(expected), std::string::npos) << "'" << text << "' said: " << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
  std::string many;
  for (std::size_t i = 0; i <= kMostMembers; ++i) {
    many += (i == 0 ? "" : ",") + std::string("m") + std::to_string(i) + ":1:uint8";
  }
  EXPECT_NE(error_of(many).find("4097 members; at most 4096"), std::string::npos);
}

// What the user typed is quoted in one short line: a control character (a newline) or a
// megabyte-long member does not break the one-line error.
TEST(SampleSpec, QuotedInputStaysOneShortLine) {
  for (const std::string& text :
       {std::string("a\nb:2:int8"), std::string("a:2:int\n8"), std::string(1 << 20, 'x'),
        "a:2:int8,b:" + std::string(1 << 20, '7') + "x:int8"}) {
    const std::string message = error_of(text);
    ASSERT_FALSE(message.empty());
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    EXPECT_LT(message.size(), 400u) << message.substr(0, 400);
  }
}

TEST(SampleSpec, AMalformedFileIsNamed) {
  const std::string dir = ::testing::TempDir();
  const std::vector<std::pair<std::string, std::string>> files{
      {"{not json", "is not JSON"},
      {R"({"items": []})", "has no \"members\" list"},
      {R"({"members": [{"name": "a", "shape": [0], "dtype": "int8"}]})", "dimension 1 '0': zero"},
      {R"({"members": [{"name": "a", "shape": [-1], "dtype": "int8"}]})", "dimension 1 is -1"},
      {R"({"members": [{"name": "a", "dtype": 3}]})", "a member is {\"name\": string"},
      {R"({"members": []})", "no members"},
  };
  int index = 0;
  for (const auto& [content, expected] : files) {
    const std::string path = dir + "h2d_bad_sample_" + std::to_string(index++) + ".json";
    std::ofstream(path) << content;
    const std::string message = error_of("@" + path);
    EXPECT_NE(message.find(expected), std::string::npos) << content << " said: " << message;
  }
}

TEST(SampleSpec, DrawsAreSeededWithinTheirRangeAndVary) {
  const SampleSpec spec = parse_sample("ids:1..512:int64,fixed:4:int8");
  std::size_t low = 1000;
  std::size_t high = 0;
  for (std::size_t sample = 0; sample < 2000; ++sample) {
    const auto shape = draw_shape(spec.members[0], 0, 7, sample);
    ASSERT_EQ(shape.size(), 1u);
    low = std::min(low, shape[0]);
    high = std::max(high, shape[0]);
    EXPECT_EQ(draw_shape(spec.members[0], 0, 7, sample), shape) << "the same sample, the same";
    EXPECT_EQ(drawn_bytes(spec.members[0], 0, 7, sample), shape[0] * 8);
    EXPECT_EQ(drawn_bytes(spec.members[1], 1, 7, sample), 4u);
  }
  EXPECT_EQ(low, 1u);
  EXPECT_EQ(high, 512u);
  std::size_t differ = 0;
  for (std::size_t sample = 0; sample < 100; ++sample) {
    differ +=
        draw_shape(spec.members[0], 0, 7, sample) != draw_shape(spec.members[0], 0, 8, sample);
  }
  EXPECT_GT(differ, 90u) << "another seed, other lengths";
}

// Random and mutated specs: each parses or throws UsageError, never anything else, and whatever
// parses reads back to itself.
TEST(SampleSpecFuzz, RandomAndMutatedSpecsParseOrSayWhy) {
  std::mt19937 random(2026);
  const std::string alphabet = "abxyz019:.,x@_-.. \t\"{}[]";
  std::vector<std::string> seeds;
  for (const SampleSpec& named : named_samples()) {
    seeds.push_back(named.text());
  }
  seeds.push_back("a::bool,b:0..3x2..5:bfloat16");
  std::size_t parsed = 0;
  for (int round = 0; round < 20000; ++round) {
    std::string text = seeds[random() % seeds.size()];
    const int edits = 1 + static_cast<int>(random() % 4);
    for (int e = 0; e < edits; ++e) {
      const std::size_t at = text.empty() ? 0 : random() % (text.size() + 1);
      switch (random() % 4) {
        case 0:
          text.insert(at, 1, alphabet[random() % alphabet.size()]);
          break;
        case 1:
          if (!text.empty() && at < text.size()) {
            text.erase(at, 1 + random() % 3);
          }
          break;
        case 2:
          text.insert(at, std::to_string(random() % 100000000));
          break;
        default:
          text = std::string(1 + random() % 40, alphabet[random() % alphabet.size()]);
      }
    }
    if (!text.empty() && text.front() == '@') {
      text.erase(0, 1);  // files are AMalformedFileIsNamed's
    }
    try {
      const SampleSpec spec = parse_sample(text);
      ++parsed;
      EXPECT_LE(spec.max_bytes(), kMostSampleBytes) << text;
      EXPECT_EQ(parse_sample(spec.text()).text(), spec.text()) << text;
    } catch (const UsageError& error) {
      EXPECT_EQ(std::string(error.what()).find('\n'), std::string::npos) << text;
    }
  }
  EXPECT_GT(parsed, 100u) << "the mutations keep some specs valid";
}

}  // namespace
}  // namespace h2d
