#include "harness/report/summary.hpp"

#include "harness/core/link_bound_family.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <unordered_map>

#include "harness/core/byte_size.hpp"
#include "harness/core/number_text.hpp"
#include "harness/core/stop_signal.hpp"
#include "harness/report/json_fields.hpp"
#include "harness/report/simulated_report.hpp"
#include "harness/report/skipped_families.hpp"

namespace h2d {
namespace {

// A workload and the strategies measured for it.
struct Workload {
  std::vector<std::pair<std::string, std::string>> key;  // non-strategy params
  std::vector<const ReportCase*> cases;
};

std::string join_params(const std::vector<std::pair<std::string, std::string>>& params) {
  std::string text;
  for (const auto& [key, value] : params) {
    text += (text.empty() ? "" : " ") + key + "=" + value;
  }
  return text;
}

// The case's parameters that are not part of its workload: how it moved the data.
std::string strategy_label(const ReportCase& c, const Workload& w) {
  std::vector<std::pair<std::string, std::string>> params;
  for (const auto& param : c.parsed.params) {
    if (std::find(w.key.begin(), w.key.end(), param) == w.key.end()) {
      params.push_back(param);
    }
  }
  return join_params(params);  // never empty when the workload has several cases
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

// Groups cases by the parameters for which `in_workload` holds, in first-seen order; the index
// keeps it linear in the cases (100k workloads of one case each are a real fuzzed input).
std::vector<Workload> group_workloads(const std::vector<const ReportCase*>& cases,
                                      const std::function<bool(const std::string&)>& in_workload) {
  std::vector<Workload> workloads;
  std::map<std::vector<std::pair<std::string, std::string>>, std::size_t> index;
  for (const ReportCase* c : cases) {
    std::vector<std::pair<std::string, std::string>> key;
    for (const auto& param : c->parsed.params) {
      if (in_workload(param.first)) {
        key.push_back(param);
      }
    }
    const auto [at, inserted] = index.emplace(key, workloads.size());
    if (inserted) {
      workloads.push_back({std::move(key), {}});
    }
    workloads[at->second].cases.push_back(c);
  }
  return workloads;
}

// The workload key without its bytes parameter: workloads that differ only in size.
std::string size_free_key(const Workload& w) {
  std::vector<std::pair<std::string, std::string>> key;
  for (const auto& param : w.key) {
    if (param.first != "bytes") {
      key.push_back(param);
    }
  }
  return join_params(key);
}

double oriented(double value, const PrimaryMetric& metric) {
  return metric.better == Better::higher ? value : -value;
}

// "best kind=pinned mode=async 24.1 GB/s, 3.2x over kind=pageable mode=sync, 87% of link"
std::string describe_workload(const Workload& w, const PrimaryMetric& metric, bool link_bound,
                              const ReportCase*& best_out) {
  const std::string& m = metric.name;
  const ReportCase* best = w.cases.front();
  for (const ReportCase* c : w.cases) {
    if (oriented(c->median(m), metric) > oriented(best->median(m), metric)) {
      best = c;
    }
  }
  best_out = best;
  const std::string where = w.key.empty() ? std::string("all cases") : join_params(w.key);
  std::string line = fmt::format("{}: ", where);
  if (w.cases.size() == 1) {
    const std::string how = strategy_label(*best, w);
    line += fmt::format("{} {}{}", short_number(best->median(m)), metric.unit,
                        how.empty() ? "" : " (" + how + ")");
  } else {
    line += fmt::format("best {} {} {}", strategy_label(*best, w), short_number(best->median(m)),
                        metric.unit);
    const ReportCase* naive = nullptr;
    int naive_points = 0;
    const ReportCase* worst = w.cases.front();
    for (const ReportCase* c : w.cases) {
      const int points = naive_score(c->parsed);
      if (points > naive_points) {
        naive = c;
        naive_points = points;
      }
      if (oriented(c->median(m), metric) < oriented(worst->median(m), metric)) {
        worst = c;
      }
    }
    const auto speedup = [&](const ReportCase* other) {
      const double ratio = best->median(m) / other->median(m);
      return metric.better == Better::higher ? ratio : 1 / ratio;
    };
    if (naive != nullptr && naive != best) {
      line += fmt::format(", {} over {}", times_text(speedup(naive)), strategy_label(*naive, w));
    } else if (naive == best) {
      const ReportCase* runner_up = nullptr;
      for (const ReportCase* c : w.cases) {
        if (c != best && (runner_up == nullptr || oriented(c->median(m), metric) >
                                                      oriented(runner_up->median(m), metric))) {
          runner_up = c;
        }
      }
      line += fmt::format(" (the naive choice; {} over {})", times_text(speedup(runner_up)),
                          strategy_label(*runner_up, w));
    } else if (worst != best) {
      line += fmt::format(", {} over the slowest ({})", times_text(speedup(worst)),
                          strategy_label(*worst, w));
    }
  }
  // Older reports annotated h2d/pin_cost too; its GB/s is pinning speed, not link traffic.
  if (const auto link = best->find_median("link_pct"); link && link_bound) {
    line += ", " + percent_text(*link, 0) + " of link";
  }
  return line;
}

FamilySummary summarize_family(const std::string& family,
                               const std::vector<const ReportCase*>& all_cases) {
  FamilySummary summary;
  summary.family = family;
  summary.metric = primary_metric(family, [&](const std::string& metric) {
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
    if (never_started) {
      summary.not_run = "interrupted";
      return summary;
    }
    summary.findings.push_back(fmt::format("no case has a {} value", summary.metric.name));
    return summary;
  }
  std::vector<Workload> workloads =
      group_workloads(measured, [](const std::string& key) { return !is_strategy_key(key); });
  // A family that sweeps a key the strategy list does not know would give one workload per case;
  // then everything but the workload keys (size, direction, device, task, batch, ...) is strategy.
  const bool all_single = std::all_of(workloads.begin(), workloads.end(),
                                      [](const Workload& w) { return w.cases.size() == 1; });
  if (all_single && workloads.size() > 1) {
    static const std::set<std::string> workload_keys{
        "bytes", "dir", "gpu", "task", "loop", "work", "batch", "compute_us", "sample_us"};
    workloads = group_workloads(
        measured, [](const std::string& key) { return workload_keys.count(key) > 0; });
  }

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
  for (const std::string& shape : shapes) {
    std::vector<const Workload*> sized = by_shape[shape];
    std::stable_sort(sized.begin(), sized.end(), [](const Workload* a, const Workload* b) {
      return bytes_of(*a->cases.front()).value_or(0) < bytes_of(*b->cases.front()).value_or(0);
    });
    std::map<std::string, int> wins;
    std::vector<std::string> lines;
    for (std::size_t i = 0; i < sized.size(); ++i) {
      const ReportCase* best = nullptr;
      const std::string line =
          describe_workload(*sized[i], summary.metric, is_link_bound_family(family), best);
      ++wins[strategy_label(*best, *sized[i])];
      if (sized.size() <= 2 || i == 0 || i + 1 == sized.size()) {
        lines.push_back(line);
      }
    }
    summary.findings.insert(summary.findings.end(), lines.begin(), lines.end());
    const bool has_choices = sized.front()->cases.size() > 1;
    if (sized.size() > 2 && has_choices) {
      const auto top = std::max_element(wins.begin(), wins.end(), [](const auto& a, const auto& b) {
        return a.second < b.second;
      });
      summary.findings.push_back(fmt::format("{}{}across {} sizes: {} is best at {} of them", shape,
                                             shape.empty() ? "" : " ", sized.size(), top->first,
                                             top->second));
    }
  }
  summary.warnings = family_warnings(measured, summary.metric);
  return summary;
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

}  // namespace

bool is_strategy_key(const std::string& key) {
  // How the data is moved (the choices a loader makes), as opposed to what is moved (size,
  // direction, task, batch, the step's cost), which defines the workload.
  static const std::set<std::string> keys{"kind",     "mode", "policy",  "pin",     "strategy",
                                          "layout",   "dest", "threads", "into",    "where",
                                          "mem",      "path", "op",      "streams", "workers",
                                          "prefetch", "copy", "chunk",   "depth"};
  return keys.count(key) > 0;
}

int naive_score(const ParsedCaseName& name) {
  int score = 0;
  const auto is = [&](const char* key, std::initializer_list<const char*> values) {
    const std::string value = name.get(key);
    for (const char* candidate : values) {
      if (value == candidate) {
        return true;
      }
    }
    return false;
  };
  score += is("kind", {"pageable"}) ? 1 : 0;
  score += is("mode", {"sync"}) ? 1 : 0;
  score += is("policy", {"none"}) ? 1 : 0;
  score += is("strategy", {"sync", "naive", "direct", "pageable"}) ? 1 : 0;
  score += is("threads", {"1"}) ? 1 : 0;
  score += is("dest", {"fresh"}) ? 1 : 0;
  return score;
}

RunSummary summarize_report(const nlohmann::json& report) {
  RunSummary summary;
  const std::vector<ReportCase> cases = collect_cases(report);
  // One pass over the cases, not one per family: a report of 100k families stays linear.
  std::unordered_map<std::string, std::vector<const ReportCase*>> members;
  for (const ReportCase& c : cases) {
    members[c.parsed.family].push_back(&c);
  }
  for (const std::string& family : families_of(cases)) {
    summary.families.push_back(summarize_family(family, members[family]));
  }
  summary.notes = context_notes(report);
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
  for (const std::string& note : summary.notes) {
    out += "note: " + note + "\n";
  }
  return out;
}

}  // namespace h2d
