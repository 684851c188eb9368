#include "harness/report/comparison.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <regex>
#include <unordered_map>
#include <unordered_set>

#include "harness/core/filter_regex.hpp"
#include "harness/core/usage_error.hpp"
#include "harness/report/case_noise.hpp"
#include "harness/report/family_catalog.hpp"
#include "harness/report/json_fields.hpp"
#include "harness/report/report_cases.hpp"
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

Comparison compare_reports(const std::vector<Report>& reports, const CompareOptions& options) {
  check_simulated_mix(reports, options.allow_simulated);
  const std::regex pattern = compile_filter("--filter", options.filter);
  // Case names are bounded by read_report (kMaxCaseNameChars): std::regex recurses per character.
  const auto selected = [&](const std::string& name) {
    return options.filter.empty() || std::regex_search(name, pattern);
  };
  Comparison comparison;
  comparison.verdict = options.verdict;
  comparison.filter = options.filter;

  // Cases of every report, and the union of names in first-seen order, grouped by family.
  std::vector<Indexed> indexed(reports.size());
  std::vector<std::string> families;
  std::unordered_map<std::string, std::vector<std::string>> names_of_family;
  std::unordered_set<std::string> seen;
  for (std::size_t r = 0; r < reports.size(); ++r) {
    indexed[r].skip_reasons = family_skip_reasons(reports[r].document);
    for (ReportCase& c : collect_cases(reports[r].document)) {
      if (!selected(c.name)) {
        continue;
      }
      if (seen.insert(c.name).second) {
        if (names_of_family.count(c.parsed.family) == 0) {
          families.push_back(c.parsed.family);
        }
        names_of_family[c.parsed.family].push_back(c.name);
      }
      indexed[r].by_name[c.name] = indexed[r].cases.size();
      indexed[r].cases.push_back(std::move(c));
    }
  }
  if (seen.empty()) {
    throw UsageError(
        options.filter.empty()
            ? std::string("the reports hold no cases to compare")
            : fmt::format("no case in the reports matches --filter '{}'", options.filter));
  }

  for (std::size_t r = 0; r < reports.size(); ++r) {
    ComparedReport side;
    side.label = report_label(r);
    side.path = reports[r].path;
    side.machine = describe_machine(reports[r].document);
    for (const ReportCase& c : indexed[r].cases) {
      side.repetitions = std::max(side.repetitions, c.repetitions);
    }
    comparison.reports.push_back(std::move(side));
  }

  std::vector<FamilyCatalog> catalogs;
  for (const Report& report : reports) {
    catalogs.emplace_back(report.document);
  }
  for (const std::string& family : families) {
    const std::vector<std::string>& names = names_of_family[family];
    ComparedFamily block;
    block.family = family;
    // The first report that declares the family decides its metric (its own run's declaration).
    const FamilyAxes* declared = nullptr;
    for (std::size_t r = 0; r < reports.size() && declared == nullptr; ++r) {
      declared = catalogs[r].find(family);
    }
    block.metric = primary_metric(declared, [&](const std::string& metric) {
      for (const Indexed& report : indexed) {
        for (const std::string& name : names) {
          const auto at = report.by_name.find(name);
          if (at != report.by_name.end() && report.cases[at->second].has(metric)) {
            return true;
          }
        }
      }
      return false;
    });
    std::vector<std::vector<double>> log_speedups(reports.size());
    for (const std::string& name : names) {
      ComparedCase row;
      row.name = name;
      std::optional<Repetitions> baseline;
      for (std::size_t r = 0; r < reports.size(); ++r) {
        ComparedCell cell;
        const auto at = indexed[r].by_name.find(name);
        if (at == indexed[r].by_name.end()) {
          const auto reason = indexed[r].skip_reasons.find(family);
          cell.problem = reason == indexed[r].skip_reasons.end() || reason->second.empty()
                             ? "not in this report"
                             : "family skipped: " + reason->second;
        } else {
          const ReportCase& c = indexed[r].cases[at->second];
          cell.present = true;
          cell.repetitions = c.repetitions;
          const std::string& metric = block.metric.name;
          if (!c.has(metric)) {
            cell.problem = c.error ? *c.error : "no " + metric + " value";
          } else if (!(c.median(metric) > 0)) {
            cell.problem = fmt::format("{} is {:g}", metric, c.median(metric));
          } else {
            cell.value = c.median(metric);
            cell.cv_pct = c.noise_pct(metric);
            const Repetitions mine = repetitions_of(c, metric);
            if (r == 0) {
              baseline = mine;
            } else if (baseline) {
              cell.vs_baseline = judge(*baseline, mine, block.metric.better, options.verdict);
              log_speedups[r].push_back(std::log(cell.vs_baseline->speedup));
            }
          }
        }
        row.cells.push_back(std::move(cell));
      }
      block.cases.push_back(std::move(row));
    }
    for (std::size_t r = 0; r < reports.size(); ++r) {
      const auto& logs = log_speedups[r];
      block.geomean_cases.push_back(logs.size());
      if (r == 0 || logs.empty()) {
        block.geomean_speedup.push_back(std::nullopt);
      } else {
        double sum = 0;
        for (double x : logs) {
          sum += x;
        }
        block.geomean_speedup.push_back(std::exp(sum / static_cast<double>(logs.size())));
      }
    }
    if (const auto only = sole_report(block); only && reports.size() > 1) {
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
          slower.push_back(fmt::format("{} ({} vs {}: {:.1f}% slower, {})", row.name,
                                       comparison.reports[r].label, comparison.reports[0].label,
                                       (1 - judgement->speedup) * 100, judgement->reason));
        }
      }
    }
  }
  return slower;
}

}  // namespace h2d
