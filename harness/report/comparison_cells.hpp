#pragma once

#include <string>
#include <utility>
#include <vector>

#include "harness/report/comparison.hpp"

namespace h2d {

// The texts every comparison format shares: a case's label within its family, a cell's value and
// verdict, a family's heading, the machine rows, the cases without a value everywhere, and the
// footnote that says how verdicts are reached.

// The case name without its family prefix.
std::string case_label(const ComparedFamily& family, const std::string& name);
// "24.1 ±2%", "no value" (present without one) or "-" (absent).
std::string value_text(const ComparedCell& cell);
// "faster p=0.008", "same", "slower?" ('?' marks an unconfirmed verdict).
std::string verdict_text(const Judgement& judgement);
// "h2d/memory (GB/s, higher is better)".
std::string metric_heading(const ComparedFamily& family);
// The machine facts as rows: label, one text per report.
std::vector<std::pair<std::string, std::vector<std::string>>> machine_rows(const Comparison& c);
// Cases missing from some report, or present without a value: "name (A: why; C: why)".
std::vector<std::string> incomplete_lines(const Comparison& c);
// Families only one report has: "h2d/batch: 32 cases, only in A (B: not in this report)".
std::vector<std::string> one_sided_lines(const Comparison& c);

// "nvbandwidth host_to_device_memcpy_ce 64 MiB: A 55.42, B 26.1 GB/s (B vs A 0.47x)": the peer
// tools' figures of every side, one line each.
std::vector<std::string> peer_lines(const Comparison& c);
std::string footnote(const Comparison& c);

}  // namespace h2d
