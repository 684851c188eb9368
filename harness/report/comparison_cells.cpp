#include "harness/report/comparison_cells.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <functional>

#include "harness/core/byte_size.hpp"
#include "harness/core/number_text.hpp"

namespace h2d {

std::string case_label(const ComparedFamily& family, const std::string& name) {
  return name.size() > family.family.size() + 1 ? name.substr(family.family.size() + 1) : name;
}

std::string value_text(const ComparedCell& cell) {
  if (!cell.value) {
    return cell.present ? "no value" : "-";
  }
  std::string text = short_number(*cell.value);
  if (cell.cv_pct) {
    text += " ±" + percent_text(*cell.cv_pct, 0);
  }
  return text;
}

std::string verdict_text(const Judgement& judgement) {
  std::string text = to_string(judgement.verdict);
  if (!judgement.reliable) {
    text += "?";
  } else if (judgement.p_value && judgement.verdict != Verdict::same) {
    text += fmt::format(" p={:.2g}", *judgement.p_value);
  }
  return text;
}

std::string metric_heading(const ComparedFamily& family) {
  return fmt::format("{} ({}, {})", family.family, family.metric.unit,
                     to_string(family.metric.better));
}

std::vector<std::pair<std::string, std::vector<std::string>>> machine_rows(const Comparison& c) {
  const std::vector<std::pair<std::string, std::function<std::string(const ComparedReport&)>>>
      fields{
          {"report", [](const ComparedReport& r) { return r.path; }},
          {"host", [](const ComparedReport& r) { return r.machine.hostname; }},
          {"GPU", [](const ComparedReport& r) { return r.machine.gpus; }},
          {"link", [](const ComparedReport& r) { return r.machine.link; }},
          {"CUDA driver", [](const ComparedReport& r) { return r.machine.driver; }},
          {"CUDA runtime", [](const ComparedReport& r) { return r.machine.runtime; }},
          {"CPU", [](const ComparedReport& r) { return r.machine.cpu; }},
          {"NUMA nodes", [](const ComparedReport& r) { return r.machine.numa; }},
          {"memory", [](const ComparedReport& r) { return r.machine.memory; }},
          {"preset",
           [](const ComparedReport& r) {
             return fmt::format("{} ({} repetition{})", r.machine.run, r.repetitions,
                                r.repetitions == 1 ? "" : "s");
           }},
          {"sample", [](const ComparedReport& r) { return r.sample; }},
          {"h2dbench", [](const ComparedReport& r) { return r.machine.build; }},
          {"started", [](const ComparedReport& r) { return r.machine.started; }},
      };
  std::vector<std::pair<std::string, std::vector<std::string>>> rows;
  for (const auto& [label, get] : fields) {
    std::vector<std::string> values;
    for (const ComparedReport& report : c.reports) {
      values.push_back(get(report));
    }
    rows.emplace_back(label, std::move(values));
  }
  return rows;
}

std::vector<std::string> incomplete_lines(const Comparison& c) {
  std::vector<std::string> lines;
  for (const ComparedFamily& family : c.families) {
    for (const ComparedCase& row : family.cases) {
      std::string where;
      bool complete = true;
      for (std::size_t r = 0; r < row.cells.size(); ++r) {
        const ComparedCell& cell = row.cells[r];
        if (!cell.value) {
          complete = false;
          where +=
              fmt::format("{}{}: {}", where.empty() ? "" : "; ", c.reports[r].label, cell.problem);
        }
      }
      if (!complete) {
        lines.push_back(fmt::format("{} ({})", row.name, where));
      }
    }
  }
  return lines;
}

std::vector<std::string> one_sided_lines(const Comparison& c) {
  std::vector<std::string> lines;
  for (const OneSidedFamily& family : c.one_sided) {
    std::string why;
    for (std::size_t r = 0; r < family.absent_because.size(); ++r) {
      if (r != family.report) {
        why += fmt::format("{}{}: {}", why.empty() ? "" : "; ", c.reports[r].label,
                           family.absent_because[r]);
      }
    }
    lines.push_back(fmt::format("{}: {} case{}, only in {} ({})", family.family, family.cases,
                                family.cases == 1 ? "" : "s", c.reports[family.report].label, why));
  }
  return lines;
}

std::vector<std::string> peer_lines(const Comparison& c) {
  std::vector<std::string> lines;
  for (const ComparedPeerFigure& figure : c.peers) {
    std::vector<std::string> values;
    for (std::size_t s = 0; s < figure.sides.size(); ++s) {
      values.push_back(fmt::format("{} {}", c.reports[s].label,
                                   figure.sides[s] ? short_number(*figure.sides[s]) : "-"));
    }
    std::string ratios;
    const std::optional<double>& base = figure.sides.front();
    for (std::size_t s = 1; s < figure.sides.size(); ++s) {
      if (base && *base > 0 && figure.sides[s]) {
        ratios += fmt::format("{}{} vs {} {}", ratios.empty() ? " (" : ", ", c.reports[s].label,
                              c.reports.front().label, times_text(*figure.sides[s] / *base));
      }
    }
    lines.push_back(fmt::format("{} {}{}: {} {}{}", figure.peer, figure.test,
                                figure.bytes > 0 ? " " + format_bytes(figure.bytes) : "",
                                fmt::join(values, ", "), figure.unit,
                                ratios.empty() ? "" : ratios + ")"));
  }
  return lines;
}

std::string footnote(const Comparison& c) {
  std::string samples;
  for (const ComparedReport& report : c.reports) {
    if (report.sample_text != c.reports.front().sample_text) {
      samples =
          " The reports moved different samples (the sample row): a batch case pairs only "
          "with the same sample's, by its name's sample= (none for the tile).";
    }
  }
  return fmt::format(
      "Speed-up > 1 means faster than {0} (for times it is {0}/X); with several runs a side it is "
      "the ratio of the runs' geometric means, each run counted once by its median. A verdict "
      "needs at least 2 runs a side (3 to find a 15% change; `compare A1 A2 A3 --vs B1 B2 B3`): "
      "'slower'/'faster' when the change is shown to lie beyond {1:g}%, every case tested at once "
      "(Holm, alpha {2:g} per comparison), else 'same'; p is Holm-adjusted. '?' marks a change "
      "seen with one run on a side: unconfirmed, never a regression for --fail-on-regression (a "
      "run's repetitions and rel_ci_pct say how well it knew its median, not where the next run "
      "lands). ± is the noise (cv) of the value, across runs where there are several.{3}",
      c.reports.front().label, c.verdict.threshold_pct, c.verdict.alpha, samples);
}

}  // namespace h2d
