#include "harness/report/summary.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <unordered_map>

#include "harness/core/byte_size.hpp"
#include "harness/core/loop_bound.hpp"
#include "harness/core/number_text.hpp"
#include "harness/core/stop_signal.hpp"
#include "harness/core/stopping_rule.hpp"
#include "harness/report/duplex_reading.hpp"
#include "harness/report/json_fields.hpp"
#include "harness/report/peer_gaps.hpp"
#include "harness/report/ring_reading.hpp"
#include "harness/report/sample_record.hpp"
#include "harness/report/simulated_report.hpp"
#include "harness/report/skipped_families.hpp"
#include "harness/report/sm_copy_reading.hpp"
#include "harness/report/within_noise.hpp"

namespace h2d {
namespace {

using Params = std::vector<std::pair<std::string, std::string>>;

// One workload (the values of the workload axes) and the strategies measured for it.
struct Workload {
  Params key;
  std::vector<const ReportCase*> cases;
};

std::string join_params(const Params& params) {
  std::string text;
  for (const auto& [key, value] : params) {
    text += (text.empty() ? "" : " ") + key + "=" + value;
  }
  return text;
}

// What the verdict reads of one family: its cases, their roles and the metric that ranks them.
class FamilyReading {
 public:
  FamilyReading(const FamilyCatalog& catalog, PrimaryMetric metric)
      : catalog_(catalog), metric_(std::move(metric)) {}

  const PrimaryMetric& metric() const { return metric_; }
  double value(const ReportCase* c) const { return c->median(metric_.name); }
  // Larger is better, whichever way the metric points.
  double oriented(const ReportCase* c) const {
    return metric_.better == Better::higher ? value(c) : -value(c);
  }
  // How many times better `best` is than `other`.
  double gain(const ReportCase* best, const ReportCase* other) const {
    const double ratio = value(best) / value(other);
    return metric_.better == Better::higher ? ratio : 1 / ratio;
  }
  const char* gain_word() const { return metric_.better == Better::higher ? "over" : "less than"; }

  Params params_of(const ReportCase& c, AxisRole role) const {
    Params params;
    for (const auto& param : c.parsed.params) {
      if (catalog_.role_of(c, param.first) == role) {
        params.push_back(param);
      }
    }
    return params;
  }
  std::string strategy_label(const ReportCase& c) const {
    return join_params(params_of(c, AxisRole::strategy));
  }

  // The naive start of the family's declaration: every strategy axis with a baseline has it.
  bool is_baseline(const ReportCase& c) const {
    int matched = 0;
    for (const auto& [key, value] : c.parsed.params) {
      const AxisDeclaration* axis = catalog_.axis_of(c, key);
      if (axis == nullptr || axis->role != AxisRole::strategy || axis->baseline.empty()) {
        continue;
      }
      if (axis->baseline != value) {
        return false;
      }
      ++matched;
    }
    return matched > 0;
  }

  // The case of `cases` that differs from `best` only where the declaration names what the
  // framework does when asked (framework_default), and has that there; nullptr when `best` is it,
  // no axis names one, or the report lacks that case.
  const ReportCase* framework_reference(const ReportCase& best,
                                        const std::vector<const ReportCase*>& cases) const {
    Params wanted;
    bool differs = false;
    for (const auto& [key, value] : params_of(best, AxisRole::strategy)) {
      const AxisDeclaration* axis = catalog_.axis_of(best, key);
      const bool framework = axis != nullptr && !axis->framework_default.empty();
      wanted.emplace_back(key, framework ? axis->framework_default : value);
      differs = differs || (framework && axis->framework_default != value);
    }
    if (!differs) {
      return nullptr;
    }
    for (const ReportCase* c : cases) {
      if (params_of(*c, AxisRole::strategy) == wanted) {
        return c;
      }
    }
    return nullptr;
  }

  std::vector<Workload> workloads(const std::vector<const ReportCase*>& cases) const {
    std::vector<Workload> grouped;
    // The index keeps it linear in the cases (100k workloads of one case each are a real fuzzed
    // input).
    std::map<Params, std::size_t> index;
    for (const ReportCase* c : cases) {
      Params key = params_of(*c, AxisRole::workload);
      const auto [at, inserted] = index.emplace(key, grouped.size());
      if (inserted) {
        grouped.push_back({std::move(key), {}});
      }
      grouped[at->second].cases.push_back(c);
    }
    return grouped;
  }

 private:
  const FamilyCatalog& catalog_;
  PrimaryMetric metric_;
};

// The strategy labels of cases that tie, short: "kind=pinned, write_combined, registered
// mode=async" when they differ in one key; groups of such joined by "; " when in more.
std::string tie_label(const std::vector<const ReportCase*>& tied, const FamilyReading& reading) {
  std::vector<Params> labels;
  for (const ReportCase* c : tied) {
    labels.push_back(reading.params_of(*c, AxisRole::strategy));
  }
  // The key with the most distinct values among the tied cases is listed value by value.
  std::map<std::string, std::set<std::string>> values;
  for (const Params& label : labels) {
    for (const auto& [key, value] : label) {
      values[key].insert(value);
    }
  }
  std::string listed;
  std::size_t most = 1;
  for (const auto& [key, distinct] : values) {
    if (distinct.size() > most) {
      most = distinct.size();
      listed = key;
    }
  }
  // Cases alike in every other key share one entry, in the order they appear in the report.
  std::vector<std::pair<Params, std::vector<std::string>>> entries;
  for (const Params& label : labels) {
    Params rest;
    std::string value;
    for (const auto& param : label) {
      if (param.first == listed) {
        value = param.second;
      } else {
        rest.push_back(param);
      }
    }
    auto at = std::find_if(entries.begin(), entries.end(),
                           [&](const auto& entry) { return entry.first == rest; });
    if (at == entries.end()) {
      entries.push_back({rest, {}});
      at = std::prev(entries.end());
    }
    at->second.push_back(value);
  }
  std::string text;
  for (const auto& [rest, listed_values] : entries) {
    std::string entry =
        listed.empty() ? "" : fmt::format("{}={}", listed, fmt::join(listed_values, ", "));
    const std::string others = join_params(rest);
    entry += (entry.empty() || others.empty() ? "" : " ") + others;
    text += (text.empty() ? "" : "; ") + entry;
  }
  return text;
}

// Bytes of a case: its "bytes" counter, else its name's bytes=... parameter.
std::optional<double> bytes_of(const ReportCase& c) {
  if (const auto counter = c.find_median("bytes")) {
    return *counter;
  }
  const std::string text = c.parsed.get("bytes");
  if (text.empty()) {
    return std::nullopt;
  }
  try {
    return static_cast<double>(parse_bytes(text));
  } catch (const std::invalid_argument&) {
    return std::nullopt;
  }
}

// The workload key without its bytes parameter: workloads that differ only in size.
std::string size_free_key(const Workload& w) {
  Params key;
  for (const auto& param : w.key) {
    if (param.first != "bytes") {
      key.push_back(param);
    }
  }
  return join_params(key);
}

struct WorkloadLine {
  std::string text;
  std::vector<std::string> winners;  // the strategy that came out best, or each of the tie
};

// "dir=h2d bytes=64MiB: within noise: kind=pinned, registered mode=async 55.1 GB/s, 6.72x over
// kind=pageable mode=sync, 94% of link"
WorkloadLine describe_workload(const Workload& w, const FamilyReading& reading, bool link_bound) {
  const PrimaryMetric& metric = reading.metric();
  std::vector<const ReportCase*> ranked = w.cases;
  std::stable_sort(ranked.begin(), ranked.end(), [&](const ReportCase* a, const ReportCase* b) {
    return reading.oriented(a) > reading.oriented(b);
  });
  const ReportCase* best = ranked.front();
  const std::string where = w.key.empty() ? std::string("all cases") : join_params(w.key);
  WorkloadLine line;
  line.text = where + ": ";
  bool alone = true;  // no other case within noise of the best
  if (ranked.size() == 1) {
    const std::string how = reading.strategy_label(*best);
    line.text += fmt::format("{} {}{}", short_number(reading.value(best)), metric.unit,
                             how.empty() ? "" : " (" + how + ")");
    line.winners = {how};
  } else {
    // Report order for the tie's names; rank order decides who is in it.
    std::vector<const ReportCase*> tied;
    for (const ReportCase* c : w.cases) {
      if (c == best || within_noise(*best, *c, metric)) {
        tied.push_back(c);
      }
    }
    alone = tied.size() == 1;
    const auto in_tie = [&](const ReportCase* c) {
      return std::find(tied.begin(), tied.end(), c) != tied.end();
    };
    for (const ReportCase* c : tied) {
      line.winners.push_back(reading.strategy_label(*c));
    }
    line.text += fmt::format("{} {} {} {}", tied.size() == 1 ? "best" : "within noise:",
                             tied.size() == 1 ? line.winners.front() : tie_label(tied, reading),
                             short_number(reading.value(best)), metric.unit);
    const auto baseline = std::find_if(w.cases.begin(), w.cases.end(), [&](const ReportCase* c) {
      return reading.is_baseline(*c);
    });
    if (tied.size() == w.cases.size()) {
      line.text += " (all of them)";
    } else if (baseline != w.cases.end() && in_tie(*baseline)) {
      const auto next = std::find_if(ranked.begin(), ranked.end(),
                                     [&](const ReportCase* c) { return !in_tie(c); });
      line.text +=
          fmt::format(" (the naive choice{}; {} {} {})", tied.size() == 1 ? "" : " is one of them",
                      times_text(reading.gain(best, *next)), reading.gain_word(),
                      reading.strategy_label(**next));
    } else if (baseline != w.cases.end()) {
      line.text += fmt::format(", {} {} {}", times_text(reading.gain(best, *baseline)),
                               reading.gain_word(), reading.strategy_label(**baseline));
    } else {
      line.text +=
          fmt::format(", {} {} the slowest ({})", times_text(reading.gain(best, ranked.back())),
                      reading.gain_word(), reading.strategy_label(*ranked.back()));
    }
  }
  // What it buys a user who already asks the framework (pin_memory=True), and in how many copies.
  if (const ReportCase* asked = reading.framework_reference(*best, w.cases);
      asked != nullptr && !within_noise(*best, *asked, metric)) {
    line.text += fmt::format(", {} {} {}", times_text(reading.gain(best, asked)),
                             reading.gain_word(), reading.strategy_label(*asked));
    const auto copies = best->find_median("copies_per_batch");
    const auto asked_copies = asked->find_median("copies_per_batch");
    if (alone && copies && asked_copies && *copies != *asked_copies) {  // a tie's may differ
      line.text += fmt::format(" ({:.0f} cop{} a batch instead of {:.0f})", *copies,
                               *copies == 1 ? "y" : "ies", *asked_copies);
    }
  }
  if (const auto link = best->find_median("link_pct");
      link && link_bound && metric.name == "GB_per_s") {
    line.text += ", " + percent_text(*link, 0) + " of link";
  }
  if (const auto ring = ring_reading(*best)) {
    line.text += "; " + *ring;
  }
  if (const auto duplex = duplex_reading(*best)) {
    line.text += "; " + *duplex;
  }
  // A loop's best setting is only as good as what holds it back: the lever to pull next.
  if (const auto code = best->find_median("bound_by")) {
    if (const auto bound = bound_from_counter(*code)) {
      line.text += fmt::format("; bound by {}", bound_stage_name(*bound));
    }
  }
  return line;
}

// Why a family has no measured case: the skip and failure messages of its cases, each once.
std::string reasons_unmeasured(const std::vector<const ReportCase*>& cases) {
  std::vector<std::string> reasons;
  for (const ReportCase* c : cases) {
    if (c->error && std::find(reasons.begin(), reasons.end(), *c->error) == reasons.end()) {
      reasons.push_back(*c->error);
    }
  }
  return fmt::format("{}", fmt::join(reasons, "; "));
}

FamilySummary summarize_family(const std::string& family,
                               const std::vector<const ReportCase*>& all_cases,
                               const FamilyCatalog& catalog,
                               const std::vector<std::string>& trace_findings) {
  FamilySummary summary;
  summary.family = family;
  const FamilyAxes* declared = catalog.find(family);
  summary.metric = primary_metric(declared, [&](const std::string& metric) {
    return std::any_of(all_cases.begin(), all_cases.end(),
                       [&](const ReportCase* c) { return c->has(metric); });
  });
  std::vector<const ReportCase*> measured;
  for (const ReportCase* c : all_cases) {
    if (c->has(summary.metric.name) && c->median(summary.metric.name) > 0) {
      measured.push_back(c);
    }
  }
  if (measured.empty()) {
    // Ctrl-C before the family's turn: every case carries the reason the runner gives those.
    const bool never_started =
        !all_cases.empty() && std::all_of(all_cases.begin(), all_cases.end(), [](const auto* c) {
          return c->error && *c->error == kInterruptedBeforeCase;
        });
    const std::string reasons = reasons_unmeasured(all_cases);
    summary.not_run = never_started     ? std::string("interrupted")
                      : reasons.empty() ? fmt::format("no case has a {} value", summary.metric.name)
                                        : reasons;
    return summary;
  }
  const FamilyReading reading(catalog, summary.metric);
  const std::vector<Workload> workloads = reading.workloads(measured);

  // Workloads that differ only in size: show the smallest and the largest, and say which
  // strategy wins across all sizes, so the verdict stays short with a full size sweep.
  std::map<std::string, std::vector<const Workload*>> by_shape;
  std::vector<std::string> shapes;
  for (const Workload& w : workloads) {
    const std::string shape = size_free_key(w);
    if (by_shape.count(shape) == 0) {
      shapes.push_back(shape);
    }
    by_shape[shape].push_back(&w);
  }
  const bool link_bound = declared != nullptr && declared->link_bound;
  for (const std::string& shape : shapes) {
    std::vector<const Workload*> sized = by_shape[shape];
    std::stable_sort(sized.begin(), sized.end(), [](const Workload* a, const Workload* b) {
      return bytes_of(*a->cases.front()).value_or(0) < bytes_of(*b->cases.front()).value_or(0);
    });
    std::map<std::string, int> wins;
    bool ties = false;
    for (std::size_t i = 0; i < sized.size(); ++i) {
      const WorkloadLine line = describe_workload(*sized[i], reading, link_bound);
      for (const std::string& winner : line.winners) {
        ++wins[winner];
      }
      ties = ties || line.winners.size() > 1;
      if (sized.size() <= 2 || i == 0 || i + 1 == sized.size()) {
        summary.findings.push_back(line.text);
      }
    }
    const bool has_choices = sized.front()->cases.size() > 1;
    if (sized.size() > 2 && has_choices) {
      const auto top = std::max_element(wins.begin(), wins.end(), [](const auto& a, const auto& b) {
        return a.second < b.second;
      });
      summary.findings.push_back(fmt::format(
          "{}{}across {} sizes: {} is best{} at {} of them", shape, shape.empty() ? "" : " ",
          sized.size(), top->first, ties ? " or within noise" : "", top->second));
    }
  }
  for (std::string& line : sm_copy_readings(measured, summary.metric)) {
    summary.findings.push_back(std::move(line));
  }
  summary.warnings = family_warnings(measured, summary.metric, catalog);
  summary.warnings.insert(summary.warnings.end(), trace_findings.begin(), trace_findings.end());
  return summary;
}

// The trace's findings that a page-locked claim was copied as pageable, by family, as warnings.
std::map<std::string, std::vector<std::string>> unpinned_trace_findings(
    const nlohmann::json& report) {
  std::map<std::string, std::vector<std::string>> by_family;
  if (!report.contains("h2dbench") || !report["h2dbench"].is_object()) {
    return by_family;
  }
  const nlohmann::json& context = report["h2dbench"];
  if (!context.contains("trace_findings") || !context["trace_findings"].is_array()) {
    return by_family;
  }
  for (const auto& finding : context["trace_findings"]) {
    if (string_or(finding, "check", "") != "pinned_claim_pageable_copies") {
      continue;
    }
    const std::string name = string_or(finding, "name", "?");
    by_family[parse_case_name(name).family].push_back(fmt::format(
        "a pin request that did not pin (trace): {} {}", name, string_or(finding, "message", "")));
  }
  return by_family;
}

std::vector<std::string> context_notes(const nlohmann::json& report) {
  std::vector<std::string> notes;
  if (!report.contains("h2dbench") || !report["h2dbench"].is_object()) {
    return notes;
  }
  const auto& context = report["h2dbench"];
  if (is_simulated_report(report)) {
    notes.push_back("SIMULATED GPU: these numbers prove logic, never speed");
  }
  const auto list_note = [&](const char* key, const char* what) {
    if (!context.contains(key) || !context[key].is_array() || context[key].empty()) {
      return;
    }
    const auto& list = context[key];
    std::string names;
    std::size_t shown = 0;
    for (const auto& item : list) {
      if (shown++ == 3) {
        names += ", ...";
        break;
      }
      names += fmt::format("{}{} ({})", shown == 1 ? "" : ", ", string_or(item, "name", "?"),
                           string_or(item, "reason", "?"));
    }
    notes.push_back(
        fmt::format("{} {} case{}: {}", list.size(), what, list.size() == 1 ? "" : "s", names));
  };
  list_note("failed_cases", "failed");
  list_note("skipped_cases", "skipped");
  if (context.contains("skipped_families") && context["skipped_families"].is_array()) {
    std::vector<SkippedFamily> skipped;
    for (const auto& family : context["skipped_families"]) {
      skipped.push_back({string_or(family, "family", "?"), string_or(family, "reason", "?")});
    }
    for (const std::string& line : group_skipped_families(skipped)) {
      notes.push_back("not run: " + line);
    }
  }
  return notes;
}

// How many cases stopped measuring before their median was known within the run's target (a
// time or count cap): their figures carry a wider interval (rel_ci_pct) than the rest. Each
// family's warning names its own (summary_warnings.cpp).
std::optional<std::string> noisy_note(const std::vector<ReportCase>& cases,
                                      const nlohmann::json& report) {
  std::size_t noisy = 0;
  std::size_t measured = 0;
  for (const ReportCase& c : cases) {
    const auto stopped_by = c.find_median("stopped_by");
    if (!stopped_by) {
      continue;  // a report from before the stopping rule, or a case that did not measure
    }
    ++measured;
    if (const auto reason = stop_reason_from_counter(*stopped_by); reason && is_noisy(*reason)) {
      ++noisy;
    }
  }
  if (noisy == 0) {
    return std::nullopt;
  }
  const nlohmann::json& rule =
      member_or_empty(member_or_empty(member_or_empty(report, "h2dbench"), "run"), "stopping_rule");
  const double target = number_or(rule, "target_rel_ci_pct", 1.0);
  const double cap = number_or(rule, "max_seconds", 0.0);
  const double lent_cap = number_or(rule, "most_seconds_with_lent_time", cap);
  const std::string cap_text =
      lent_cap > cap
          ? fmt::format("{:g} s cap (up to {:g} s with time steady cases left)", cap, lent_cap)
          : fmt::format("{:g} s cap", cap);
  return fmt::format(
      "{} of {} cases stopped at their {} before their median was known within {:g}% (noisy: "
      "each family's warning names its own, rel_ci_pct says how well)",
      noisy, measured, cap_text, target);
}

// A run on a shared virtual machine whose hypervisor took a share of the CPU time worth saying:
// noise that no stopping rule averages away, and that a comparison with another rig should know.
std::optional<std::string> steal_note(const nlohmann::json& report) {
  constexpr double kWorthSayingPct = 1.0;
  const double steal =
      number_or(member_or_empty(member_or_empty(report, "h2dbench"), "run"), "cpu_steal_pct", 0);
  if (!(steal >= kWorthSayingPct)) {
    return std::nullopt;
  }
  return fmt::format(
      "the hypervisor took {:.1f}% of the CPU time while the cases ran (cpu steal: a shared "
      "virtual machine); noisy cases may owe it their noise, and this machine's figures move "
      "with its neighbours' load",
      steal);
}

// The sample the batch families moved, where it was not the tile: their verdict lines are for it.
std::optional<std::string> sample_note(const nlohmann::json& report) {
  const nlohmann::json& sample = member_or_empty(member_or_empty(report, "h2dbench"), "sample");
  const std::string name = report_sample_name(report);
  if (name == "tile" || !sample.contains("text") || !sample["text"].is_string()) {
    return std::nullopt;
  }
  // A damaged record's numbers stay in range: they only label the note.
  const auto bytes = [&](const char* key) {
    const double value = number_or(sample, key, 0);
    return std::isfinite(value) ? std::clamp(value, 0.0, 1e15) : 0.0;
  };
  const double low = bytes("min_bytes_per_sample");
  const double high = bytes("max_bytes_per_sample");
  const std::size_t members =
      sample.contains("members") && sample["members"].is_array() ? sample["members"].size() : 0;
  return fmt::format(
      "the batch families moved the sample {} ({} member{}, {} bytes a sample): {}", name, members,
      members == 1 ? "" : "s",
      low == high ? fmt::format("{:.0f}", high) : fmt::format("{:.0f}..{:.0f}", low, high),
      sample["text"].get<std::string>());
}

}  // namespace

RunSummary summarize_report(const nlohmann::json& report) {
  RunSummary summary;
  const FamilyCatalog catalog(report);
  const std::vector<ReportCase> cases = collect_cases(report);
  const auto trace_findings = unpinned_trace_findings(report);
  // One pass over the cases, not one per family: a report of 100k families stays linear.
  std::unordered_map<std::string, std::vector<const ReportCase*>> members;
  for (const ReportCase& c : cases) {
    members[c.parsed.family].push_back(&c);
  }
  for (const std::string& family : families_of(cases)) {
    const auto found = trace_findings.find(family);
    summary.families.push_back(summarize_family(
        family, members[family], catalog,
        found == trace_findings.end() ? std::vector<std::string>{} : found->second));
  }
  summary.notes = context_notes(report);
  if (auto note = sample_note(report)) {
    summary.notes.push_back(std::move(*note));
  }
  if (auto note = noisy_note(cases, report)) {
    summary.notes.push_back(std::move(*note));
  }
  if (auto note = steal_note(report)) {
    summary.notes.push_back(std::move(*note));
  }
  summary.peer_gaps = peer_gap_lines(report);
  return summary;
}

std::string format_summary(const RunSummary& summary) {
  std::string out = "\nVerdict\n";
  if (summary.families.empty()) {
    out += "  no measured case in this report\n";
  }
  for (const FamilySummary& family : summary.families) {
    if (!family.not_run.empty()) {
      out += fmt::format("{}: not run ({})\n", family.family, family.not_run);
      continue;
    }
    out += fmt::format("{} ({}, {})\n", family.family, family.metric.unit,
                       to_string(family.metric.better));
    for (const std::string& line : family.findings) {
      out += "  " + line + "\n";
    }
    for (const std::string& line : family.warnings) {
      out += "  warning: " + line + "\n";
    }
  }
  if (!summary.peer_gaps.empty()) {
    out += "beside the peers (ours, theirs, our gap)\n";
    for (const std::string& line : summary.peer_gaps) {
      out += "  " + line + "\n";
    }
  }
  for (const std::string& note : summary.notes) {
    out += "note: " + note + "\n";
  }
  return out;
}

}  // namespace h2d
