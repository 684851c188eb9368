#include "harness/report/comparison.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "harness/core/text_table.hpp"
#include "harness/core/usage_error.hpp"
#include "harness/report/comparison_format.hpp"
#include "harness/report/machine_info.hpp"
#include "harness/report/sample_record.hpp"
#include "report_builder.hpp"

namespace h2d {
namespace {

using testing::ReportBuilder;

const std::string kPinned = "h2d/memory/dir=h2d/kind=pinned/mode=async/bytes=64MiB";
const std::string kPageable = "h2d/memory/dir=h2d/kind=pageable/mode=sync/bytes=64MiB";
const std::string kMemcpy = "host/memcpy/threads=1/bytes=64MiB";

// Two different machines: a PCIe gen4 box and a gen5 box, five repetitions each.
std::vector<Report> two_machines() {
  ReportBuilder gen4("rig4", "NVIDIA A100-PCIE-40GB");
  gen4.json()["h2dbench"]["topology"] = {
      {"gpus", {{{"ordinal", 0}, {"link", {{"generation", 4}, {"width", 16}}}}}}};
  gen4.add(kPinned, "GB_per_s", {25.0, 25.1, 24.9, 25.2, 25.05}, {{"cv_pct", 1}})
      .add(kPageable, "GB_per_s", {10.0, 10.2, 9.9, 10.1, 10.0})
      .add(kMemcpy, "GB_per_s", {8, 8.1, 7.9, 8.05, 8.0});
  ReportBuilder gen5("rig5", "NVIDIA H100 PCIe");
  gen5.json()["h2dbench"]["gpus"][0]["link_generation"] = 5;
  gen5.json()["h2dbench"]["gpus"][0]["link_width"] = 16;
  gen5.add(kPinned, "GB_per_s", {50.0, 50.2, 49.8, 50.1, 50.3})
      .add(kPageable, "GB_per_s", {10.1, 9.9, 10.0, 10.2, 9.95})
      .add(kMemcpy, "GB_per_s", {6, 6.1, 5.9, 6.05, 6.0});
  return {gen4.report("gen4.json"), gen5.report("gen5.json")};
}

// The same two machines, three runs each (one repetition a run): what a verdict needs.
std::vector<std::vector<Report>> two_machines_three_runs() {
  std::vector<std::vector<Report>> sides(2);
  const std::vector<double> pinned4{25.0, 25.2, 24.9}, pinned5{50.0, 50.3, 49.8};
  const std::vector<double> pageable4{10.0, 10.2, 9.9}, pageable5{10.1, 9.9, 10.0};
  const std::vector<double> memcpy4{8.0, 8.1, 7.9}, memcpy5{6.0, 6.1, 5.95};
  for (std::size_t run = 0; run < 3; ++run) {
    ReportBuilder gen4("rig4", "NVIDIA A100-PCIE-40GB");
    gen4.json()["h2dbench"]["topology"] = {
        {"gpus", {{{"ordinal", 0}, {"link", {{"generation", 4}, {"width", 16}}}}}}};
    gen4.add(kPinned, "GB_per_s", {pinned4[run]}, {{"cv_pct", 1}})
        .add(kPageable, "GB_per_s", {pageable4[run]})
        .add(kMemcpy, "GB_per_s", {memcpy4[run]});
    ReportBuilder gen5("rig5", "NVIDIA H100 PCIe");
    gen5.json()["h2dbench"]["gpus"][0]["link_generation"] = 5;
    gen5.json()["h2dbench"]["gpus"][0]["link_width"] = 16;
    gen5.add(kPinned, "GB_per_s", {pinned5[run]})
        .add(kPageable, "GB_per_s", {pageable5[run]})
        .add(kMemcpy, "GB_per_s", {memcpy5[run]});
    sides[0].push_back(gen4.report("gen4-" + std::to_string(run) + ".json"));
    sides[1].push_back(gen5.report("gen5-" + std::to_string(run) + ".json"));
  }
  return sides;
}

const ComparedFamily& family(const Comparison& c, const std::string& name) {
  for (const auto& f : c.families) {
    if (f.family == name) {
      return f;
    }
  }
  throw std::runtime_error("no family " + name);
}

const ComparedCase& row(const ComparedFamily& f, const std::string& name) {
  for (const auto& r : f.cases) {
    if (r.name == name) {
      return r;
    }
  }
  throw std::runtime_error("no case " + name);
}

TEST(Comparison, DifferentMachinesSideBySideWithVerdictsOverRuns) {
  const Comparison c = compare_sides(two_machines_three_runs(), {});
  ASSERT_EQ(c.reports.size(), 2u);
  EXPECT_EQ(c.reports[0].label, "A");
  EXPECT_EQ(c.reports[1].label, "B");
  EXPECT_EQ(c.reports[0].runs, 3u);
  EXPECT_EQ(c.reports[0].path, "gen4-0.json, gen4-1.json, gen4-2.json");
  EXPECT_EQ(c.reports[0].machine.link, "PCIe gen4 x16");
  EXPECT_EQ(c.reports[1].machine.link, "PCIe gen5 x16");
  EXPECT_EQ(c.reports[1].machine.gpus, "NVIDIA H100 PCIe (cc 9.0)");

  const ComparedFamily& memory = family(c, "h2d/memory");
  EXPECT_EQ(memory.metric.name, "GB_per_s");
  const ComparedCell& pinned = row(memory, kPinned).cells[1];
  EXPECT_EQ(pinned.run_values, (std::vector<double>{50.0, 50.3, 49.8}));
  EXPECT_DOUBLE_EQ(*pinned.value, 50.0);  // the median run
  ASSERT_TRUE(pinned.vs_baseline.has_value());
  EXPECT_EQ(pinned.vs_baseline->verdict, Verdict::faster);
  EXPECT_TRUE(pinned.vs_baseline->reliable);
  // The ratio of geometric means over runs.
  EXPECT_NEAR(pinned.vs_baseline->speedup,
              std::cbrt(50.0 * 50.3 * 49.8) / std::cbrt(25.0 * 25.2 * 24.9), 1e-9);
  ASSERT_TRUE(pinned.vs_baseline->p_value.has_value());
  EXPECT_LT(*pinned.vs_baseline->p_value, 0.05);
  EXPECT_LT(*pinned.vs_baseline->speedup_low_pct, 100 * (pinned.vs_baseline->speedup - 1));
  EXPECT_EQ(row(memory, kPageable).cells[1].vs_baseline->verdict, Verdict::same);
  ASSERT_TRUE(memory.geomean_speedup[1].has_value());
  EXPECT_EQ(memory.geomean_cases[1], 2u);
  EXPECT_FALSE(memory.geomean_speedup[0].has_value());

  const ComparedCell& memcpy = row(family(c, "host/memcpy"), kMemcpy).cells[1];
  EXPECT_EQ(memcpy.vs_baseline->verdict, Verdict::slower);
  EXPECT_TRUE(memcpy.vs_baseline->reliable);
  ASSERT_EQ(reliable_regressions(c).size(), 1u);
  EXPECT_NE(reliable_regressions(c)[0].find(kMemcpy + " (B vs A: beyond -5%"), std::string::npos)
      << reliable_regressions(c)[0];
}

// Five repetitions in one run a side are one run's measurement: they share its drift, so the
// change is given with its size and left unconfirmed, never a regression for the gate.
TEST(Comparison, RepetitionsInOneRunAreOneMeasurement) {
  const Comparison c = compare_reports(two_machines(), {});
  EXPECT_EQ(c.reports[0].repetitions, 5u);
  const ComparedCell& memcpy = row(family(c, "host/memcpy"), kMemcpy).cells[1];
  EXPECT_EQ(memcpy.run_values.size(), 1u);
  EXPECT_EQ(memcpy.vs_baseline->verdict, Verdict::slower);
  EXPECT_FALSE(memcpy.vs_baseline->reliable);
  EXPECT_NEAR(memcpy.vs_baseline->speedup, 6.0 / 8.0, 1e-9);
  EXPECT_NE(memcpy.vs_baseline->reason.find("unconfirmed: 1 run vs 1"), std::string::npos);
  EXPECT_TRUE(reliable_regressions(c).empty());
}

TEST(Comparison, SidesOfRunsAreOneMachineEachAndNotEmpty) {
  auto sides = two_machines_three_runs();
  sides[0].push_back(sides[1].front());  // a rig5 run among rig4's
  try {
    compare_sides(sides, {});
    FAIL() << "a side mixing machines was accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--vs: the runs of one side must come from one machine"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("gen5-0.json"), std::string::npos) << e.what();
  }
  EXPECT_THROW(compare_sides({two_machines_three_runs()[0], {}}, {}), UsageError);
}

// A GPU report beside a host-only one: the GPU families are said once, each with why the other
// report lacks it, instead of a row of '-' per case (issue 30); a case missing from a family both
// reports ran is still listed.
TEST(Comparison, FamiliesInOneReportAreSaidOnceAndMissingCasesListed) {
  const std::string kMemcpyBig = "host/memcpy/threads=2/bytes=64MiB";
  ReportBuilder gpu("gpubox", "NVIDIA H200");
  gpu.add(kPinned, "GB_per_s", {50}).add(kPageable, "GB_per_s", {9}).add(kMemcpy, "GB_per_s", {8});
  gpu.add(kMemcpyBig, "GB_per_s", {14});
  ReportBuilder cpu("laptop");
  cpu.add(kMemcpy, "GB_per_s", {7}).add("host/first_touch/dest=fresh/bytes=1MiB", "GB_per_s", {3});
  cpu.skip_family("h2d/memory", "no usable GPU: no NVIDIA driver is installed");
  const Comparison c = compare_reports({gpu.report(), cpu.report()}, {});
  ASSERT_EQ(c.one_sided.size(), 2u);
  EXPECT_EQ(c.one_sided[0].family, "h2d/memory");
  EXPECT_EQ(c.one_sided[0].report, 0u);
  EXPECT_EQ(c.one_sided[0].cases, 2u);
  EXPECT_EQ(c.one_sided[0].absent_because[1],
            "family skipped: no usable GPU: no NVIDIA driver is installed");
  EXPECT_EQ(c.one_sided[1].family, "host/first_touch");
  EXPECT_EQ(c.one_sided[1].report, 1u);
  EXPECT_THROW(family(c, "h2d/memory"), std::runtime_error);
  const ComparedCase& big = row(family(c, "host/memcpy"), kMemcpyBig);
  EXPECT_FALSE(big.in_all());
  EXPECT_EQ(big.cells[1].problem, "not in this report");
  EXPECT_EQ(c.reports[1].machine.gpus, "none (no NVIDIA driver is installed)");
  EXPECT_EQ(c.reports[1].machine.link, "-");

  for (const CompareFormat format : {CompareFormat::table, CompareFormat::markdown}) {
    const std::string text = format_comparison(c, format, false);
    EXPECT_NE(text.find("Families in one report only, nothing to compare (2)"), std::string::npos)
        << text;
    EXPECT_NE(text.find("h2d/memory: 2 cases, only in A (B: family skipped: no usable GPU"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("host/first_touch: 1 case, only in B (A: not in this report)"),
              std::string::npos)
        << text;
    EXPECT_EQ(text.find(kPinned), std::string::npos) << text;  // said once, not per case
    EXPECT_NE(text.find("Cases without a value in every report (1)"), std::string::npos) << text;
    EXPECT_NE(text.find(kMemcpyBig + " (B: not in this report)"), std::string::npos) << text;
  }
  const std::string json = format_comparison(c, CompareFormat::json, false);
  EXPECT_NE(json.find("one_sided_families"), std::string::npos);
}

TEST(Comparison, FailedCasesShowTheirError) {
  ReportBuilder a("a");
  a.add(kPinned, "GB_per_s", {50});
  ReportBuilder b("b");
  b.add_error(kPinned, "pinned budget exceeded");
  const Comparison c = compare_reports({a.report(), b.report()}, {});
  const ComparedCell& cell = row(family(c, "h2d/memory"), kPinned).cells[1];
  EXPECT_TRUE(cell.present);
  EXPECT_FALSE(cell.value.has_value());
  EXPECT_EQ(cell.problem, "pinned budget exceeded");
  EXPECT_FALSE(cell.vs_baseline.has_value());
}

// A report of the tile beside one of another sample: the sample row says which, the batch cases
// pair only within one sample (by their names), and a report from before --sample is the tile's.
TEST(Comparison, ReportsOfDifferentSamplesSayWhichAndPairOnlyWithinOne) {
  const std::string tile_case = "host/collate/layout=tuple/into=layout/batch=16";
  const std::string detection_case =
      "host/collate/sample=detection/layout=tuple/collate=list/"
      "into=layout/batch=16";
  ReportBuilder a("a");
  a.add(tile_case, "GB_per_s", {10}).add(kMemcpy, "GB_per_s", {8});
  ReportBuilder b("a");
  b.json()["h2dbench"]["sample"] = sample_to_json(parse_sample("detection"), "detection");
  b.add(detection_case, "GB_per_s", {9}).add(kMemcpy, "GB_per_s", {8});
  const Comparison c = compare_reports({a.report(), b.report()}, {});
  EXPECT_EQ(c.reports[0].sample, "tile");
  EXPECT_EQ(c.reports[1].sample, "detection");
  const ComparedFamily& collate = family(c, "host/collate");
  EXPECT_FALSE(row(collate, tile_case).cells[1].value.has_value());
  EXPECT_FALSE(row(collate, detection_case).cells[0].value.has_value());
  const std::string table = format_comparison(c, CompareFormat::table, false);
  EXPECT_NE(table.find("The reports moved different samples"), std::string::npos) << table;
  EXPECT_NE(table.find("detection"), std::string::npos);
  ReportBuilder other("a");  // a custom sample beside another custom one: not the same sample
  other.json()["h2dbench"]["sample"] = sample_to_json(parse_sample("x:4:int8"), "x:4:int8");
  other.add(kMemcpy, "GB_per_s", {8});
  ReportBuilder custom("a");
  custom.json()["h2dbench"]["sample"] = sample_to_json(parse_sample("y:4:int8"), "y:4:int8");
  custom.add(kMemcpy, "GB_per_s", {8});
  EXPECT_NE(format_comparison(compare_reports({other.report(), custom.report()}, {}),
                              CompareFormat::table, false)
                .find("different samples"),
            std::string::npos);
  const Comparison same = compare_reports({a.report(), a.report()}, {});
  EXPECT_EQ(format_comparison(same, CompareFormat::table, false).find("different samples"),
            std::string::npos);
}

TEST(Comparison, WithOneRunASideVerdictsAreUnconfirmed) {
  ReportBuilder a("a");
  a.add(kMemcpy, "GB_per_s", {10});
  ReportBuilder b("b");
  b.add(kMemcpy, "GB_per_s", {5});
  const Comparison c = compare_reports({a.report(), b.report()}, {});
  const auto& judgement = *row(family(c, "host/memcpy"), kMemcpy).cells[1].vs_baseline;
  EXPECT_EQ(judgement.verdict, Verdict::slower);
  EXPECT_FALSE(judgement.reliable);
  EXPECT_TRUE(reliable_regressions(c).empty());  // --fail-on-regression ignores it
  const std::string table = format_comparison(c, CompareFormat::table, false);
  EXPECT_NE(table.find("slower?"), std::string::npos);
  EXPECT_NE(table.find("unconfirmed"), std::string::npos);
}

// A case since the stopping rule has one repetition and the interval of its median: that
// interval is the run's own, and does not make a verdict between two runs reliable (case_noise.hpp
// says what two runs of one machine did), so --fail-on-regression does not act on it.
TEST(Comparison, OneRepetitionStaysUnreliableWithTheMediansInterval) {
  const auto report = [](const char* host, double gb_per_s) {
    ReportBuilder r(host);
    r.add(kMemcpy, "GB_per_s", {gb_per_s},
          {{"rel_ci_pct", 0.5}, {"measurements", 400}, {"stopped_by", 1}});
    return r.report();
  };
  const Comparison c = compare_reports({report("a", 10), report("b", 8)}, {});
  const auto& judgement = *row(family(c, "host/memcpy"), kMemcpy).cells[1].vs_baseline;
  EXPECT_EQ(judgement.verdict, Verdict::slower);
  EXPECT_FALSE(judgement.reliable) << judgement.reason;
  EXPECT_TRUE(reliable_regressions(c).empty());
}

TEST(Comparison, TimeOnlyFamiliesAreLowerIsBetter) {
  ReportBuilder a("a");
  a.add("future/pin_cost/bytes=1MiB", "real_time", {100, 101, 99});
  ReportBuilder b("b");
  b.add("future/pin_cost/bytes=1MiB", "real_time", {50, 51, 49});
  // The builder writes real_time 100 for every entry; the metric values above replace it.
  const Comparison c = compare_reports({a.report(), b.report()}, {});
  const ComparedFamily& f = family(c, "future/pin_cost");
  EXPECT_EQ(f.metric.name, "real_time");
  EXPECT_EQ(f.metric.better, Better::lower);
  const auto& judgement = *f.cases[0].cells[1].vs_baseline;
  EXPECT_EQ(judgement.verdict, Verdict::faster);
  EXPECT_NEAR(judgement.speedup, 2.0, 1e-9);
}

// A family this h2dbench has never heard of, declared by the reports that ran it: its metric and
// direction come from that declaration, not from the counter's name.
TEST(Comparison, AFamilyNeverSeenIsComparedByItsDeclaration) {
  const nlohmann::json declaration = {
      {"family", "future/ring"},
      {"metric", {{"counter", "stall_count"}, {"unit", "stalls"}, {"better", "lower"}}},
      {"axes", {{{"key", "how"}, {"role", "strategy"}}}}};
  ReportBuilder a("a");
  a.add("future/ring/how=ring", "stall_count", {10, 11, 9}, {{"GB_per_s", 5}});
  a.json()["h2dbench"]["declarations"] = nlohmann::json::array({declaration});
  ReportBuilder b("b");
  b.add("future/ring/how=ring", "stall_count", {5, 6, 4}, {{"GB_per_s", 4}});
  b.json()["h2dbench"]["declarations"] = nlohmann::json::array({declaration});
  const Comparison c = compare_reports({a.report(), b.report()}, {});
  const ComparedFamily& f = family(c, "future/ring");
  EXPECT_EQ(f.metric.name, "stall_count");
  EXPECT_EQ(f.metric.unit, "stalls");
  EXPECT_EQ(f.metric.better, Better::lower);
  EXPECT_NEAR(f.cases[0].cells[1].vs_baseline->speedup, 2.0, 1e-9);  // fewer stalls: faster
}

TEST(Comparison, FilterAndItsErrors) {
  const auto reports = two_machines();
  CompareOptions options;
  options.filter = "kind=pinned";
  const Comparison c = compare_reports(reports, options);
  ASSERT_EQ(c.families.size(), 1u);
  ASSERT_EQ(c.families[0].cases.size(), 1u);
  options.filter = "(";
  EXPECT_THROW(compare_reports(reports, options), UsageError);
  options.filter = "nothing-matches";
  EXPECT_THROW(compare_reports(reports, options), UsageError);
}

TEST(ComparisonFormat, EveryFormatCarriesTheVerdicts) {
  const Comparison c = compare_sides(two_machines_three_runs(), {});
  const std::string table = format_comparison(c, CompareFormat::table, false);
  EXPECT_NE(table.find("PCIe gen4 x16"), std::string::npos);
  EXPECT_NE(table.find("faster p="), std::string::npos);
  EXPECT_NE(table.find("geomean"), std::string::npos);
  EXPECT_EQ(table.find("\033["), std::string::npos);  // no colour when not asked
  EXPECT_NE(format_comparison(c, CompareFormat::table, true).find("\033["), std::string::npos);

  const std::string markdown = format_comparison(c, CompareFormat::markdown, false);
  EXPECT_NE(markdown.find("### h2d/memory (GB/s, higher is better)"), std::string::npos);
  EXPECT_NE(markdown.find("| **link** | PCIe gen4 x16 | PCIe gen5 x16 |"), std::string::npos);

  const std::string csv = format_comparison(c, CompareFormat::csv, false);
  std::istringstream lines(csv);
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ(line.rfind("family,case,metric,better,label,host,value", 0), 0u);
  std::size_t rows = 0;
  while (std::getline(lines, line)) {
    ++rows;
    EXPECT_EQ(std::count(line.begin(), line.end(), ','), 14) << line;
  }
  EXPECT_EQ(rows, 6u);  // 3 cases x 2 reports

  const auto json = nlohmann::json::parse(format_comparison(c, CompareFormat::json, false));
  EXPECT_EQ(json["baseline"], "A");
  EXPECT_EQ(json["reports"][1]["machine"]["link"], "PCIe gen5 x16");
  EXPECT_EQ(json["regressions"].size(), 1u);
  EXPECT_EQ(json["reports"][0]["runs"], 3);
  bool found = false;
  for (const auto& f : json["families"]) {
    for (const auto& k : f["cases"]) {
      if (k["name"] == kPinned) {
        EXPECT_EQ(k["cells"][1]["verdict"], "faster");
        EXPECT_EQ(k["cells"][1]["reliable"], true);
        found = true;
      }
    }
  }
  EXPECT_TRUE(found);
  EXPECT_THROW(parse_compare_format("xml"), UsageError);
}

TEST(ComparisonFormat, TableColumnsAlign) {
  const Comparison c = compare_sides(two_machines_three_runs(), {});
  const std::string table = format_comparison(c, CompareFormat::table, false);
  // In the h2d/memory section every row is as wide as its dashed rule (the last column is
  // left-aligned and not padded, so rows may be shorter, never longer).
  std::istringstream lines(table.substr(table.find("h2d/memory (")));
  std::string heading;
  std::string header;
  std::string rule;
  std::getline(lines, heading);
  std::getline(lines, header);
  std::getline(lines, rule);
  ASSERT_EQ(rule.find_first_not_of('-'), std::string::npos);
  // The verdict column starts at the same character (not byte: values carry '±') in every row.
  const std::size_t verdict_column = display_width(header.substr(0, header.find("verdict")));
  for (int i = 0; i < 2; ++i) {
    std::string line;
    std::getline(lines, line);
    EXPECT_LE(display_width(line), rule.size());
    std::size_t at = line.find("faster");
    if (at == std::string::npos) {
      at = line.find("same");
    }
    ASSERT_NE(at, std::string::npos) << line;
    EXPECT_EQ(display_width(line.substr(0, at)), verdict_column) << line;
  }
}

TEST(MachineInfo, LinkFromSeveralShapes) {
  EXPECT_EQ(describe_link({{"link", {{"generation", 3}, {"width", 8}}}}), "PCIe gen3 x8");
  EXPECT_EQ(describe_link({{"pcie", {{"current_gen", 4}, {"current_width", 16}}}}),
            "PCIe gen4 x16");
  EXPECT_EQ(describe_link({{"current_link_gen", 5}, {"current_link_width", 16}}), "PCIe gen5 x16");
  EXPECT_EQ(describe_link({{"link",
                            {{"current", {{"generation", 3}, {"width", 16}}},
                             {"max", {{"generation", 4}, {"width", 16}}}}}}),
            "PCIe gen3 x16");
  EXPECT_EQ(describe_link({{"name", "no link here"}}), "");
  // A report without an h2dbench context at all (plain Google Benchmark JSON, issue 20) says
  // its machine is unknown; one with an empty h2dbench context gives a header of dashes.
  const MachineInfo plain = describe_machine(nlohmann::json::object());
  EXPECT_EQ(plain.hostname, "unknown");
  EXPECT_EQ(plain.link, "unknown");
  const MachineInfo empty = describe_machine({{"h2dbench", nlohmann::json::object()}});
  EXPECT_EQ(empty.hostname, "-");
  EXPECT_EQ(empty.link, "-");
}

// The peer tools' figures (run --peers) are compared too, as their own lines: nvbandwidth beside
// nvbandwidth on each rig, the median over a side's runs.
TEST(Comparison, PeerFiguresOfEverySideAreTheirOwnLines) {
  std::vector<std::vector<Report>> sides = two_machines_three_runs();
  const auto peer = [](double value) {
    return nlohmann::json{
        {"peer", "nvbandwidth"}, {"version", "v0.8"}, {"test", "host_to_device_memcpy_ce"},
        {"bytes", 64 << 20},     {"value", value},    {"unit", "GB/s"},
        {"pairs_with", kPinned}};
  };
  const std::vector<double> gen4{26.0, 25.0, 25.5}, gen5{55.4, 55.5, 55.3};
  for (std::size_t run = 0; run < 3; ++run) {
    sides[0][run].document["h2dbench"]["peers"]["figures"] =
        nlohmann::json::array({peer(gen4[run])});
    sides[1][run].document["h2dbench"]["peers"]["figures"] =
        nlohmann::json::array({peer(gen5[run])});
  }
  const Comparison c = compare_sides(sides, CompareOptions{});
  ASSERT_EQ(c.peers.size(), 1u);
  EXPECT_DOUBLE_EQ(*c.peers[0].sides[0], 25.5);
  EXPECT_DOUBLE_EQ(*c.peers[0].sides[1], 55.4);
  const std::string table = format_comparison(c, CompareFormat::table, false);
  EXPECT_NE(table.find("nvbandwidth host_to_device_memcpy_ce 64MiB: A 25.5, B 55.4 GB/s (B vs A "
                       "2.17x)"),
            std::string::npos)
      << table;
  const std::string json = format_comparison(c, CompareFormat::json, false);
  EXPECT_NE(json.find("\"peers\""), std::string::npos);
  // Reports without peers compare as before: no such section.
  const Comparison plain = compare_sides(two_machines_three_runs(), CompareOptions{});
  EXPECT_TRUE(plain.peers.empty());
  EXPECT_EQ(format_comparison(plain, CompareFormat::table, false).find("peer tools"),
            std::string::npos);
}

}  // namespace
}  // namespace h2d
