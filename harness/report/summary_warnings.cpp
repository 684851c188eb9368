// The warnings of the end-of-run verdict: generic rules over counters, so they hold for families
// that do not exist yet. Each rule is one function; family_warnings runs them all.

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "harness/core/number_text.hpp"
#include "harness/core/statistics.hpp"
#include "harness/report/summary.hpp"

namespace h2d {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;
// An async copy call that held the caller for this share of the copy's own time did not overlap.
constexpr double kNoOverlapShare = 0.8;

// Pin policies that do not ask for page-locked memory.
bool asks_for_pinning(const std::string& policy) {
  static const std::set<std::string> unpinned{"", "none", "off", "no", "pageable", "unpinned"};
  return unpinned.count(policy) == 0;
}

// Host memory kinds that are page-locked by construction.
bool page_locked_kind(const std::string& kind) {
  static const std::set<std::string> kinds{"pinned", "write_combined", "registered", "portable",
                                           "mapped"};
  return kinds.count(kind) > 0;
}

std::string percent_range(double low, double high) {
  return std::abs(high - low) < 0.5
             ? percent_text(low, 0)
             : fmt::format("{}-{}",
                           std::abs(low) <= 1e4 ? fmt::format("{:.0f}", low) : percent_text(low, 0),
                           percent_text(high, 0));
}

// "tuple batches with pin policy 'requested' were 0% pinned": a pin request that silently did
// not pin (the PyTorch custom-batch trap), from a pinned_fraction counter (0..1).
void unpinned_requests(const std::vector<const ReportCase*>& cases,
                       std::vector<std::string>& warnings) {
  std::map<std::pair<std::string, std::string>, std::pair<double, double>> seen;  // min, max %
  std::vector<std::pair<std::string, std::string>> order;
  for (const ReportCase* c : cases) {
    const std::string policy = c->parsed.get("policy");
    const auto fraction = c->find_median("pinned_fraction");
    if (!fraction || !asks_for_pinning(policy) || *fraction >= 0.999) {
      continue;
    }
    const auto key = std::make_pair(c->parsed.get("layout"), policy);
    const double pct = *fraction * 100;
    auto [at, inserted] = seen.emplace(key, std::make_pair(pct, pct));
    if (inserted) {
      order.push_back(key);
    } else {
      at->second = {std::min(at->second.first, pct), std::max(at->second.second, pct)};
    }
  }
  for (const auto& key : order) {
    const auto [low, high] = seen[key];
    const std::string what = key.first.empty() ? "batches" : key.first + " batches";
    warnings.push_back(fmt::format("{} with pin policy '{}' were {} pinned", what, key.second,
                                   percent_range(low, high)));
  }
}

// A kind that should be page-locked but CUDA says is not (host_pinned counter 0).
void unlocked_kinds(const std::vector<const ReportCase*>& cases,
                    std::vector<std::string>& warnings) {
  std::map<std::string, int> count;
  for (const ReportCase* c : cases) {
    const std::string kind = c->parsed.get("kind");
    const auto pinned = c->find_median("host_pinned");
    if (pinned && *pinned < 0.5 && page_locked_kind(kind)) {
      ++count[kind];
    }
  }
  for (const auto& [kind, n] : count) {
    warnings.push_back(
        fmt::format("kind={} memory was not page-locked according to CUDA ({} case{})", kind, n,
                    n == 1 ? "" : "s"));
  }
}

// Async copies whose call held the caller about as long as the copy took: no overlap. Expected
// for pageable memory (that is the point of the warning: non_blocking bought nothing); for
// page-locked memory it is a surprise, and only meaningful for copies of 1 MiB and more, where
// the copy outlasts the call's fixed cost.
void no_overlap(const std::vector<const ReportCase*>& cases, std::vector<std::string>& warnings) {
  struct Tally {
    int blocked = 0;
    int total = 0;
    std::vector<double> shares;
  };
  std::map<std::string, Tally> by_kind;
  std::vector<std::string> order;
  for (const ReportCase* c : cases) {
    const std::string mode = c->parsed.get("mode");
    const std::string strategy = c->parsed.get("strategy");
    if (mode != "async" && strategy.find("async") == std::string::npos) {
      continue;
    }
    const auto block = c->find_median("host_block_us");
    const auto latency = c->find_median("latency_us");
    if (!block || !latency || *latency <= 0) {
      continue;
    }
    const auto pinned = c->find_median("host_pinned");
    std::string kind = c->parsed.get("kind");
    if (kind.empty()) {
      kind = pinned && *pinned < 0.5 ? "pageable" : "page-locked";
    }
    const bool pageable = kind == "pageable" || (pinned && *pinned < 0.5);
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

// Cases whose spread is above kNoisyCv: their numbers deserve less trust.
void noisy(const std::vector<const ReportCase*>& cases, const PrimaryMetric& metric,
           std::vector<std::string>& warnings) {
  std::vector<std::pair<double, std::string>> loud;
  for (const ReportCase* c : cases) {
    const auto noise = c->noise_pct(metric.name);
    if (noise && *noise > kNoisyCv * 100) {
      loud.emplace_back(*noise, c->name);
    }
  }
  if (loud.empty()) {
    return;
  }
  std::sort(loud.begin(), loud.end(),
            [](const auto& a, const auto& b) { return a.first > b.first; });
  std::string examples;
  for (std::size_t i = 0; i < loud.size() && i < 3; ++i) {
    examples += fmt::format("{}{} (cv {})", i == 0 ? "" : ", ", loud[i].second,
                            percent_text(loud[i].first, loud[i].first < 10 ? 1 : 0));
  }
  warnings.push_back(fmt::format("{} noisy case{} (cv > {:.0f}%): {}{}", loud.size(),
                                 loud.size() == 1 ? "" : "s", kNoisyCv * 100, examples,
                                 loud.size() > 3 ? ", ..." : ""));
}

}  // namespace

std::vector<std::string> family_warnings(const std::vector<const ReportCase*>& cases,
                                         const PrimaryMetric& metric) {
  std::vector<std::string> warnings;
  unpinned_requests(cases, warnings);
  unlocked_kinds(cases, warnings);
  no_overlap(cases, warnings);
  enqueue_bound(cases, warnings);
  noisy(cases, metric, warnings);
  return warnings;
}

}  // namespace h2d
