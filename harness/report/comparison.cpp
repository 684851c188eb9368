#include "harness/report/comparison.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <regex>
#include <unordered_map>
#include <unordered_set>

#include "harness/core/filter_regex.hpp"
#include "harness/core/statistics.hpp"
#include "harness/core/usage_error.hpp"
#include "harness/report/family_catalog.hpp"
#include "harness/report/json_fields.hpp"
#include "harness/report/report_cases.hpp"
#include "harness/report/run_verdict.hpp"
#include "harness/report/sample_record.hpp"
#include "harness/report/simulated_report.hpp"

namespace h2d {
namespace {

// Why each family is absent from a report, from its skipped_families list: built once per report,
// so cases missing from a report with many skipped families stay a lookup each.
std::unordered_map<std::string, std::string> family_skip_reasons(const nlohmann::json& report) {
  std::unordered_map<std::string, std::string> reasons;
  const auto context = report.find("h2dbench");
  if (context == report.end() || !context->is_object()) {
    return reasons;
  }
  const auto skipped = context->find("skipped_families");
  if (skipped == context->end() || !skipped->is_array()) {
    return reasons;
  }
  for (const auto& family : *skipped) {
    reasons.emplace(string_or(family, "family", ""), string_or(family, "reason", "skipped"));
  }
  return reasons;
}

struct Indexed {
  std::vector<ReportCase> cases;
  std::unordered_map<std::string, std::size_t> by_name;
  std::unordered_map<std::string, std::string> skip_reasons;
};

// The report that has cases of the family, when exactly one has.
std::optional<std::size_t> sole_report(const ComparedFamily& family) {
  std::optional<std::size_t> only;
  for (const ComparedCase& row : family.cases) {
    for (std::size_t r = 0; r < row.cells.size(); ++r) {
      if (row.cells[r].present) {
        if (only && *only != r) {
          return std::nullopt;
        }
        only = r;
      }
    }
  }
  return only;
}

OneSidedFamily one_sided(const ComparedFamily& family, std::size_t report) {
  OneSidedFamily side{family.family, report, family.cases.size(), {}};
  for (const ComparedCell& cell : family.cases.front().cells) {
    side.absent_because.push_back(cell.present ? "" : cell.problem);
  }
  return side;
}

}  // namespace

bool ComparedCase::in_all() const {
  return std::all_of(cells.begin(), cells.end(),
                     [](const ComparedCell& cell) { return cell.present; });
}

std::string report_label(std::size_t index) {
  if (index < 26) {
    return std::string(1, static_cast<char>('A' + index));
  }
  return fmt::format("R{}", index + 1);
}

namespace {

// Runs of one side come from one machine: otherwise their spread is the machines' difference.
void check_one_machine(const std::vector<Report>& runs) {
  const auto identity = [](const MachineInfo& m) {
    return m.hostname + " / " + m.gpus + " / " + m.cpu;
  };
  const std::string first = identity(describe_machine(runs.front().document));
  for (const Report& run : runs) {
    const std::string mine = identity(describe_machine(run.document));
    if (mine != first) {
      throw UsageError(fmt::format(
          "--vs: the runs of one side must come from one machine, but {} is '{}' and {} is '{}'",
          runs.front().path, first, run.path, mine));
    }
  }
}

std::string joined_paths(const std::vector<Report>& runs) {
  std::string paths;
  for (const Report& run : runs) {
    paths += (paths.empty() ? "" : ", ") + run.path;
  }
  return paths;
}

// The spread of run values (their cv, in %): what compare's ± shows for a side of several runs.
std::optional<double> across_runs_cv_pct(const std::vector<double>& values) {
  if (values.size() < 2) {
    return std::nullopt;
  }
  return summarize(values).cv * 100;
}

}  // namespace

Comparison compare_reports(const std::vector<Report>& reports, const CompareOptions& options) {
  std::vector<std::vector<Report>> sides;
  for (const Report& report : reports) {
    sides.push_back({report});
  }
  return compare_sides(sides, options);
}

Comparison compare_sides(const std::vector<std::vector<Report>>& sides,
                         const CompareOptions& options) {
  std::vector<Report> all_runs;
  for (const std::vector<Report>& runs : sides) {
    if (runs.empty()) {
      throw UsageError("--vs: each side needs at least one report");
    }
    check_one_machine(runs);
    all_runs.insert(all_runs.end(), runs.begin(), runs.end());
  }
  check_simulated_mix(all_runs, options.allow_simulated);
  const std::regex pattern = compile_filter("--filter", options.filter);
  // Case names are bounded by read_report (kMaxCaseNameChars): std::regex recurses per character.
  const auto selected = [&](const std::string& name) {
    return options.filter.empty() || std::regex_search(name, pattern);
  };
  Comparison comparison;
  comparison.verdict = options.verdict;
  comparison.filter = options.filter;
  comparison.peers = compare_peer_figures(sides);

  // Cases of every run of every side, and the union of names in first-seen order, by family.
  std::vector<std::vector<Indexed>> indexed(sides.size());
  std::vector<std::string> families;
  std::unordered_map<std::string, std::vector<std::string>> names_of_family;
  std::unordered_set<std::string> seen;
  for (std::size_t s = 0; s < sides.size(); ++s) {
    for (const Report& run : sides[s]) {
      Indexed& at = indexed[s].emplace_back();
      at.skip_reasons = family_skip_reasons(run.document);
      for (ReportCase& c : collect_cases(run.document)) {
        if (!selected(c.name)) {
          continue;
        }
        if (seen.insert(c.name).second) {
          if (names_of_family.count(c.parsed.family) == 0) {
            families.push_back(c.parsed.family);
          }
          names_of_family[c.parsed.family].push_back(c.name);
        }
        at.by_name[c.name] = at.cases.size();
        at.cases.push_back(std::move(c));
      }
    }
  }
  if (seen.empty()) {
    throw UsageError(
        options.filter.empty()
            ? std::string("the reports hold no cases to compare")
            : fmt::format("no case in the reports matches --filter '{}'", options.filter));
  }

  for (std::size_t s = 0; s < sides.size(); ++s) {
    ComparedReport side;
    side.label = report_label(s);
    side.path = joined_paths(sides[s]);
    side.runs = sides[s].size();
    side.machine = describe_machine(sides[s].front().document);
    side.sample = report_sample_name(sides[s].front().document);
    side.sample_text = report_sample_text(sides[s].front().document);
    for (const Indexed& run : indexed[s]) {
      for (const ReportCase& c : run.cases) {
        side.repetitions = std::max(side.repetitions, c.repetitions);
      }
    }
    comparison.reports.push_back(std::move(side));
  }

  std::vector<FamilyCatalog> catalogs;
  for (const Report& run : all_runs) {
    catalogs.emplace_back(run.document);
  }
  std::vector<ComparedFamily> blocks;
  for (const std::string& family : families) {
    const std::vector<std::string>& names = names_of_family[family];
    ComparedFamily block;
    block.family = family;
    // The first report that declares the family decides its metric (its own run's declaration).
    const FamilyAxes* declared = nullptr;
    for (std::size_t r = 0; r < catalogs.size() && declared == nullptr; ++r) {
      declared = catalogs[r].find(family);
    }
    block.metric = primary_metric(declared, [&](const std::string& metric) {
      for (const std::vector<Indexed>& side : indexed) {
        for (const Indexed& run : side) {
          for (const std::string& name : names) {
            const auto at = run.by_name.find(name);
            if (at != run.by_name.end() && run.cases[at->second].has(metric)) {
              return true;
            }
          }
        }
      }
      return false;
    });
    const std::string& metric = block.metric.name;
    for (const std::string& name : names) {
      ComparedCase row;
      row.name = name;
      for (std::size_t s = 0; s < sides.size(); ++s) {
        ComparedCell cell;
        std::optional<double> single_run_noise;
        for (const Indexed& run : indexed[s]) {
          const auto at = run.by_name.find(name);
          if (at == run.by_name.end()) {
            continue;
          }
          const ReportCase& c = run.cases[at->second];
          cell.present = true;
          cell.repetitions = std::max(cell.repetitions, c.repetitions);
          if (!c.has(metric)) {
            cell.problem = c.error ? *c.error : "no " + metric + " value";
          } else if (!(c.median(metric) > 0)) {
            cell.problem = fmt::format("{} is {:g}", metric, c.median(metric));
          } else {
            cell.run_values.push_back(c.median(metric));
            single_run_noise = c.noise_pct(metric);
          }
        }
        if (!cell.present) {
          const auto& reasons = indexed[s].front().skip_reasons;
          const auto reason = reasons.find(family);
          cell.problem = reason == reasons.end() || reason->second.empty()
                             ? "not in this report"
                             : "family skipped: " + reason->second;
        } else if (!cell.run_values.empty()) {
          cell.problem.clear();  // a run without a value is outvoted by those with one
          cell.value = summarize(cell.run_values).median;
          cell.cv_pct =
              cell.run_values.size() >= 2 ? across_runs_cv_pct(cell.run_values) : single_run_noise;
        }
        row.cells.push_back(std::move(cell));
      }
      block.cases.push_back(std::move(row));
    }
    blocks.push_back(std::move(block));
  }

  // Every case against the baseline at once: the gate's Holm adjustment spans them all.
  std::vector<CaseRuns> judged;
  std::vector<ComparedCell*> judged_cells;
  for (ComparedFamily& block : blocks) {
    for (ComparedCase& row : block.cases) {
      const ComparedCell& base = row.cells.front();
      for (std::size_t s = 1; s < row.cells.size(); ++s) {
        if (base.value && row.cells[s].value) {
          judged.push_back({base.run_values, row.cells[s].run_values, block.metric.better});
          judged_cells.push_back(&row.cells[s]);
        }
      }
    }
  }
  const std::vector<Judgement> judgements = judge_runs(judged, options.verdict);
  for (std::size_t i = 0; i < judgements.size(); ++i) {
    judged_cells[i]->vs_baseline = judgements[i];
  }

  for (ComparedFamily& block : blocks) {
    std::vector<std::vector<double>> log_speedups(sides.size());
    for (const ComparedCase& row : block.cases) {
      for (std::size_t s = 1; s < row.cells.size(); ++s) {
        if (row.cells[s].vs_baseline) {
          log_speedups[s].push_back(std::log(row.cells[s].vs_baseline->speedup));
        }
      }
    }
    for (std::size_t s = 0; s < sides.size(); ++s) {
      const auto& logs = log_speedups[s];
      block.geomean_cases.push_back(logs.size());
      if (s == 0 || logs.empty()) {
        block.geomean_speedup.push_back(std::nullopt);
      } else {
        double sum = 0;
        for (double x : logs) {
          sum += x;
        }
        block.geomean_speedup.push_back(std::exp(sum / static_cast<double>(logs.size())));
      }
    }
    if (const auto only = sole_report(block); only && sides.size() > 1) {
      comparison.one_sided.push_back(one_sided(block, *only));
    } else {
      comparison.families.push_back(std::move(block));
    }
  }
  return comparison;
}

std::vector<std::string> reliable_regressions(const Comparison& comparison) {
  std::vector<std::string> slower;
  for (const ComparedFamily& family : comparison.families) {
    for (const ComparedCase& row : family.cases) {
      for (std::size_t r = 0; r < row.cells.size(); ++r) {
        const auto& judgement = row.cells[r].vs_baseline;
        if (judgement && judgement->verdict == Verdict::slower && judgement->reliable) {
          slower.push_back(fmt::format("{} ({} vs {}: {})", row.name, comparison.reports[r].label,
                                       comparison.reports[0].label, judgement->reason));
        }
      }
    }
  }
  return slower;
}

}  // namespace h2d
