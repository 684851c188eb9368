#include "harness/cli/run_options.hpp"

#include <gtest/gtest.h>

#include "harness/core/usage_error.hpp"

namespace h2d {
namespace {

std::string error_of(const std::vector<std::string>& args, bool listing = false) {
  try {
    parse_run_options(args, listing);
  } catch (const UsageError& error) {
    return error.what();
  }
  return "";
}

TEST(RunOptions, DefaultsToTheDefaultPreset) {
  const RunOptions options = parse_run_options({}, false);
  EXPECT_EQ(options.preset, Preset::standard);
  EXPECT_FALSE(options.out);
  EXPECT_FALSE(options.devices);
}

TEST(RunOptions, ParsesSpaceAndEqualsForms) {
  const RunOptions options =
      parse_run_options({"--preset", "quick", "--out=r.json", "--devices", "0,1", "--filter=h2d/",
                         "--pinned-limit", "2GiB", "--benchmark_repetitions=5"},
                        false);
  EXPECT_EQ(options.preset, Preset::quick);
  EXPECT_EQ(*options.out, "r.json");
  EXPECT_EQ(*options.devices, "0,1");
  EXPECT_EQ(options.filter, "h2d/");
  EXPECT_EQ(*options.pinned_limit, std::size_t{2} << 30);
  EXPECT_EQ(options.benchmark_flags, std::vector<std::string>{"--benchmark_repetitions=5"});
}

TEST(RunOptions, ErrorsNameTheFlagAndWhatIsValid) {
  EXPECT_NE(error_of({"--preset", "fast"}).find("quick, default, full"), std::string::npos);
  EXPECT_NE(error_of({"--bogus"}).find("'--bogus'"), std::string::npos);
  EXPECT_NE(error_of({"--out"}).find("--out needs a value"), std::string::npos);
  EXPECT_NE(error_of({"--out="}).find("--out needs a value"), std::string::npos);
  EXPECT_NE(error_of({"--preset", "--out", "x"}).find("--preset needs a value"), std::string::npos);
  EXPECT_NE(error_of({"--filter", "("}).find("not a valid regular expression"), std::string::npos);
  EXPECT_NE(error_of({"--pinned-limit", "lots"}).find("--pinned-limit"), std::string::npos);
}

TEST(RunOptions, ListTakesOnlySelectionFlags) {
  EXPECT_NO_THROW(parse_run_options({"--preset", "full", "--filter", "x"}, true));
  EXPECT_NE(error_of({"--out", "x.json"}, true).find("for list"), std::string::npos);
  EXPECT_NE(error_of({"--benchmark_filter=x"}, true).find("no Google Benchmark flags"),
            std::string::npos);
}

TEST(DeviceList, AllAndExplicitOrdinals) {
  EXPECT_EQ(parse_device_list("all", 3), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(parse_device_list("2,0", 3), (std::vector<int>{2, 0}));
  EXPECT_EQ(parse_device_list("1", 2), (std::vector<int>{1}));
}

TEST(DeviceList, RejectsMissingRepeatedAndMalformed) {
  auto message = [](const std::string& text, int count) {
    try {
      parse_device_list(text, count);
    } catch (const UsageError& error) {
      return std::string(error.what());
    }
    return std::string();
  };
  EXPECT_NE(message("3", 2).find("GPU 3 does not exist (GPUs here: 0..1)"), std::string::npos);
  EXPECT_NE(message("0,0", 2).find("listed twice"), std::string::npos);
  EXPECT_NE(message("a", 2).find("'a' is not a GPU ordinal"), std::string::npos);
  EXPECT_NE(message("0,", 2).find("is not a GPU ordinal"), std::string::npos);
  EXPECT_NE(message("-1", 2).find("is not a GPU ordinal"), std::string::npos);
}

}  // namespace
}  // namespace h2d
