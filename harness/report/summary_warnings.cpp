// The warnings of the end-of-run verdict: generic rules over counters, so they hold for families
// that do not exist yet. Each rule is one function; family_warnings runs them all.

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include "harness/core/case_claims.hpp"
#include "harness/core/number_text.hpp"
#include "harness/core/statistics.hpp"
#include "harness/core/stopping_rule.hpp"
#include "harness/report/summary.hpp"

namespace h2d {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;
// An async copy call that held the caller for this share of the copy's own time did not overlap.
constexpr double kNoOverlapShare = 0.8;

std::string percent_range(double low, double high) {
  return std::abs(high - low) < 0.5
             ? percent_text(low, 0)
             : fmt::format("{}-{}",
                           std::abs(low) <= 1e4 ? fmt::format("{:.0f}", low) : percent_text(low, 0),
                           percent_text(high, 0));
}

// The claims of a case, from its family's declaration (the case's own `axes` name the keys).
CaseClaims claims_of(const ReportCase& c, const FamilyCatalog& catalog) {
  return declared_claims(catalog.find(c.parsed.family), c.parsed.params);
}

// How much of the case's host memory was page-locked (0..1): pinned_fraction where the family
// measures it, else CUDA's host_pinned (0 or 1); nullopt when neither was measured.
std::optional<double> pinned_share(const ReportCase& c) {
  if (const auto fraction = c.find_median("pinned_fraction")) {
    return fraction;
  }
  return c.find_median("host_pinned");
}

// "pin=requested asked for page-locked memory but was 0% pinned in 16 of 24 cases (layout=tuple,
// list)": a pin request that silently did not pin (the PyTorch custom-batch trap). The workload
// values that set the unpinned cases apart are named.
void unpinned_requests(const std::vector<const ReportCase*>& cases, const FamilyCatalog& catalog,
                       std::vector<std::string>& warnings) {
  struct Request {
    std::vector<const ReportCase*> all;
    std::vector<const ReportCase*> unpinned;
    double low = 100;
    double high = 0;
  };
  std::map<std::string, Request> requests;
  std::vector<std::string> order;
  for (const ReportCase* c : cases) {
    const CaseClaims claims = claims_of(*c, catalog);
    const auto share = pinned_share(*c);
    if (!claims.pinned || !share) {
      continue;
    }
    if (requests.count(claims.pinned_by) == 0) {
      order.push_back(claims.pinned_by);
    }
    Request& request = requests[claims.pinned_by];
    request.all.push_back(c);
    if (*share < 0.999) {
      request.unpinned.push_back(c);
      request.low = std::min(request.low, *share * 100);
      request.high = std::max(request.high, *share * 100);
    }
  }
  for (const std::string& by : order) {
    const Request& request = requests[by];
    if (request.unpinned.empty()) {
      continue;
    }
    // Workload keys whose values among the unpinned cases are fewer than among all of them.
    std::string apart;
    std::vector<std::string> keys;  // in the order they appear
    std::map<std::string, std::set<std::string>> values;
    for (const ReportCase* c : request.all) {
      for (const auto& [key, value] : c->parsed.params) {
        if (catalog.role_of(*c, key) != AxisRole::workload) {
          continue;
        }
        if (values.count(key) == 0) {
          keys.push_back(key);
        }
        values[key].insert(value);
      }
    }
    for (const std::string& key : keys) {
      std::vector<std::string> unpinned_values;
      for (const ReportCase* c : request.unpinned) {
        const std::string value = c->parsed.get(key);
        if (std::find(unpinned_values.begin(), unpinned_values.end(), value) ==
            unpinned_values.end()) {
          unpinned_values.push_back(value);
        }
      }
      if (unpinned_values.size() < values[key].size()) {
        apart +=
            fmt::format("{}{}={}", apart.empty() ? "" : " ", key, fmt::join(unpinned_values, ", "));
      }
    }
    warnings.push_back(fmt::format(
        "{} asked for page-locked memory but was {} pinned in {} of {} cases{}: a pin request "
        "that silently did not pin, so those copies ran from pageable memory",
        by, percent_range(request.low, request.high), request.unpinned.size(), request.all.size(),
        apart.empty() ? "" : " (" + apart + ")"));
  }
}

// Async copies whose call held the caller about as long as the copy took: no overlap. Expected
// for pageable memory (that is the point of the warning: non_blocking bought nothing); for
// page-locked memory it is a surprise, and only meaningful for copies of 1 MiB and more, where
// the copy outlasts the call's fixed cost.
void no_overlap(const std::vector<const ReportCase*>& cases, const FamilyCatalog& catalog,
                std::vector<std::string>& warnings) {
  struct Tally {
    int blocked = 0;
    int total = 0;
    std::vector<double> shares;
  };
  std::map<std::string, Tally> by_kind;
  std::vector<std::string> order;
  for (const ReportCase* c : cases) {
    const CaseClaims claims = claims_of(*c, catalog);
    if (!claims.async) {
      continue;
    }
    const auto block = c->find_median("host_block_us");
    const auto latency = c->find_median("latency_us");
    if (!block || !latency || *latency <= 0) {
      continue;
    }
    const auto pinned = pinned_share(*c);
    const bool pageable = !claims.pinned || (pinned && *pinned < 0.5);
    const std::string kind = pageable ? "pageable" : claims.pinned_by;
    const auto bytes = c->find_median("bytes");
    if (!pageable && (!bytes || *bytes < kMiB)) {
      continue;
    }
    if (by_kind.count(kind) == 0) {
      order.push_back(kind);
    }
    Tally& tally = by_kind[kind];
    ++tally.total;
    const double share = *block / *latency;
    if (share >= kNoOverlapShare) {
      ++tally.blocked;
      tally.shares.push_back(share);
    }
  }
  for (const std::string& kind : order) {
    const Tally& tally = by_kind[kind];
    if (tally.blocked == 0) {
      continue;
    }
    const double share = summarize(tally.shares).median * 100;
    if (kind == "pageable") {
      warnings.push_back(fmt::format(
          "pageable async did not overlap: the copy call held the caller for {} of the copy "
          "time ({} of {} cases); only page-locked memory lets the host run ahead",
          percent_text(share, 0), tally.blocked, tally.total));
    } else {
      warnings.push_back(fmt::format(
          "{} async blocked the caller for {} of the copy time ({} of {} cases >= 1 MiB): "
          "expected to return at once",
          kind, percent_text(share, 0), tally.blocked, tally.total));
    }
  }
}

// Page-locked batches with more copies than a latch may hold (kMaxLatchedCopies, 64, in
// harness/host/host_copy.hpp) ran unlatched: their copy time includes enqueueing every copy, so it
// measures the enqueue rate as much as the link. Read from the counters: latched=0 although
// pinned_fraction=1.
void enqueue_bound(const std::vector<const ReportCase*>& cases,
                   std::vector<std::string>& warnings) {
  int count = 0;
  double fewest = 0;
  for (const ReportCase* c : cases) {
    const auto latched = c->find_median("latched");
    const auto pinned = c->find_median("pinned_fraction");
    const auto copies = c->find_median("copies_per_batch");
    if (!latched || !pinned || !copies || *latched > 0.5 || *pinned < 0.999 || *copies <= 64) {
      continue;
    }
    fewest = count == 0 ? *copies : std::min(fewest, *copies);
    ++count;
  }
  if (count > 0) {
    warnings.push_back(fmt::format(
        "{} page-locked case{} with more than 64 copies per batch (from {:.0f}) ran without a "
        "latch: copy_ms and GB_per_s include enqueueing the copies (enqueue-bound; see "
        "docs/batch.md)",
        count, count == 1 ? "" : "s", fewest));
  }
}

// Up to three "name (what)" examples, then ", ..." when there are more.
std::string examples_of(const std::vector<std::pair<double, std::string>>& sorted,
                        const std::function<std::string(double)>& what) {
  std::string text;
  for (std::size_t i = 0; i < sorted.size() && i < 3; ++i) {
    text += fmt::format("{}{} ({})", i == 0 ? "" : ", ", sorted[i].second, what(sorted[i].first));
  }
  return text + (sorted.size() > 3 ? ", ..." : "");
}

// Cases whose numbers deserve less trust: noisy ones and drifting ones. Where the report says how
// well each median is known (the stopping rule's stopped_by and rel_ci_pct), those that stopped at
// their time cap before it was known within the rule's target, by their interval: a wide spread
// with a known median is the case's nature, not noise. In older reports, those whose spread is
// above kNoisyCv.
void noisy(const std::vector<const ReportCase*>& cases, const PrimaryMetric& metric,
           std::vector<std::string>& warnings) {
  std::vector<std::pair<double, std::string>> capped;  // rel_ci_pct
  std::vector<std::pair<double, std::string>> loud;    // cv, in %
  for (const ReportCase* c : cases) {
    if (const auto stopped_by = c->find_median("stopped_by")) {
      const auto reason = stop_reason_from_counter(*stopped_by);
      if (reason && is_noisy(*reason)) {
        capped.emplace_back(c->find_median("rel_ci_pct").value_or(0), c->name);
      }
      continue;
    }
    const auto noise = c->noise_pct(metric.name);
    if (noise && *noise > kNoisyCv * 100) {
      loud.emplace_back(*noise, c->name);
    }
  }
  const auto widest_first = [](const auto& a, const auto& b) { return a.first > b.first; };
  std::sort(capped.begin(), capped.end(), widest_first);
  std::sort(loud.begin(), loud.end(), widest_first);
  if (!capped.empty()) {
    warnings.push_back(fmt::format(
        "{} noisy case{} (median not known within the stopping rule's target at the time cap): {}",
        capped.size(), capped.size() == 1 ? "" : "s",
        examples_of(capped, [](double pct) { return fmt::format("+-{:.1f}%", pct); })));
  }
  std::vector<std::pair<double, std::string>> moved;  // drift_pct of the measured time
  for (const ReportCase* c : cases) {
    if (c->find_median("drifting").value_or(0) > 0) {
      moved.emplace_back(c->find_median("drift_pct").value_or(0), c->name);
    }
  }
  std::sort(moved.begin(), moved.end(),
            [](const auto& a, const auto& b) { return std::abs(a.first) > std::abs(b.first); });
  if (!moved.empty()) {
    warnings.push_back(fmt::format(
        "{} drifting case{} (the second half of the measurements disagrees with the first: the "
        "median depends on when it stopped): {}",
        moved.size(), moved.size() == 1 ? "" : "s",
        examples_of(moved, [](double pct) { return fmt::format("time {:+.1f}%", pct); })));
  }
  if (!loud.empty()) {
    warnings.push_back(fmt::format(
        "{} noisy case{} (cv > {:.0f}%): {}", loud.size(), loud.size() == 1 ? "" : "s",
        kNoisyCv * 100,
        examples_of(loud, [](double cv) { return "cv " + percent_text(cv, cv < 10 ? 1 : 0); })));
  }
}

}  // namespace

std::vector<std::string> family_warnings(const std::vector<const ReportCase*>& cases,
                                         const PrimaryMetric& metric,
                                         const FamilyCatalog& catalog) {
  std::vector<std::string> warnings;
  unpinned_requests(cases, catalog, warnings);
  no_overlap(cases, catalog, warnings);
  enqueue_bound(cases, warnings);
  noisy(cases, metric, warnings);
  return warnings;
}

}  // namespace h2d
