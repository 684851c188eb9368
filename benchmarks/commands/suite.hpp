#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "harness/cli/run_options.hpp"
#include "harness/suite/context.hpp"
#include "harness/suite/family.hpp"

namespace h2d {

// Resolves --devices against what CUDA sees (default: GPU 0). Without a GPU, naming one is a
// UsageError; not naming one gives a plan with no devices, which runs the host-side families.
RunPlan make_plan(const RunOptions& options, const DeviceDiscovery& discovery);

// What a run on a GPU machine would be given, for `list --all` where no GPU is usable: GPU 0, or
// the ordinals --devices names ("all": one), each described only by its ordinal. Families decide
// their cases from the ordinals alone, so the list is the one a GPU machine prints.
RunPlan make_preview_plan(const RunOptions& options);

// The cases a run would execute, and the families it leaves out with their reason.
struct SuiteSelection {
  std::vector<BenchmarkCase> cases;
  std::vector<SkippedFamily> skipped_families;
};

// Asks every registered family for its cases under `plan`, keeps those whose name matches
// `filter` (std::regex search; empty keeps all) and `benchmark_filter` (--benchmark_filter: a
// leading '-' negates). GPU families are skipped with the plan's reason when it has no devices.
SuiteSelection select_cases(const RunPlan& plan, const std::string& filter,
                            const std::string& benchmark_filter = {});

// What run_selection gives back: Google Benchmark's JSON document, and the cases that were
// skipped or failed, with why.
struct SuiteRun {
  nlohmann::json report;
  CaseOutcomes outcomes;
};

// Registers the selection with Google Benchmark (manual time, one body call per case and
// repetition, handed `context`: its MeasurementLoop decides how long it measures), runs it with the
// console table on stdout, and returns what it measured and what happened to each case.
SuiteRun run_selection(const SuiteSelection& selection, const RunOptions& options,
                       const CaseContext& context, const std::string& program);

// What each case means, from its family's declaration: `axes` on every entry of a selected case
// ({"workload": {...}, "strategy": {...}}) and the declarations of the run's families in
// h2dbench.declarations, so readers of the report need no table of their own.
void add_declarations(nlohmann::json& report, const SuiteSelection& selection);

// Profile mode (--profile, --trace): every case takes this many measurements, once, so a
// profiler's timeline shows the steady state without growing large.
constexpr int kProfileIterations = 3;

// What every case of a run of `cases` cases with `options` and `plan` is handed: the preset's
// stopping rule for that many, at least --benchmark_min_time of measuring, exactly
// kProfileIterations measurements in profile mode; the --watchdog; the plan's image set. (The
// latching is the startup probe's: run_command.)
CaseContext case_context(const RunOptions& options, const RunPlan& plan, std::size_t cases);

}  // namespace h2d
