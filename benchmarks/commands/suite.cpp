#include "benchmarks/commands/suite.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <regex>

#include "harness/cli/benchmark_flags.hpp"
#include "harness/cli/capturing_reporter.hpp"
#include "harness/cli/run_options.hpp"
#include "harness/core/time_bank.hpp"
#include "harness/core/usage_error.hpp"
#include "harness/report/benchmark_json.hpp"
#include "harness/report/declarations_json.hpp"
#include "harness/report/primary_metric.hpp"
#include "harness/suite/case_runner.hpp"

namespace h2d {
namespace {

// Google Benchmark appends "/manual_time" to the names of manually timed cases, and
// "/iterations:N" or "/min_time:T" to those with per-benchmark settings; the report keeps the
// names exactly as the families built them, so reports and NVTX ranges agree.
void strip_timing_suffixes(nlohmann::json& report) {
  static const std::regex suffix(
      "/(manual_time|real_time|process_time|iterations:[0-9]+|repeats:[0-9]+|"
      "min_(warmup_)?time:[0-9.e+-]+)");
  for (auto& run : report["benchmarks"]) {
    for (const char* key : {"name", "run_name"}) {
      if (run.contains(key) && run[key].is_string()) {
        run[key] = std::regex_replace(run[key].get<std::string>(), suffix, "");
      }
    }
  }
}

}  // namespace

// Resolves --devices against what CUDA sees. Without a GPU, asking for one is an error; not
// asking runs the host-side families.
RunPlan make_plan(const RunOptions& options, const DeviceDiscovery& discovery) {
  RunPlan plan;
  plan.preset = options.preset;
  plan.sample = options.sample;
  plan.no_gpu_reason = discovery.unavailable_reason;
  if (options.images) {
    plan.images = std::make_shared<const RunImages>(*options.images);  // a bad folder: one line
  }
  if (!discovery.usable()) {
    if (options.devices && *options.devices != "all") {
      throw UsageError(fmt::format("--devices '{}': no GPU is usable here: {}", *options.devices,
                                   discovery.unavailable_reason));
    }
    return plan;
  }
  const std::vector<int> ordinals =
      parse_device_list(options.devices.value_or("0"), static_cast<int>(discovery.devices.size()));
  for (int ordinal : ordinals) {
    plan.devices.push_back(discovery.devices[static_cast<std::size_t>(ordinal)]);
  }
  return plan;
}

RunPlan make_preview_plan(const RunOptions& options) {
  constexpr int kMostPreviewOrdinals = 64;  // any ordinal a user may name on a big machine
  const std::string wanted = options.devices.value_or("0");
  RunPlan plan;
  plan.preset = options.preset;
  plan.sample = options.sample;
  for (int ordinal : parse_device_list(wanted, wanted == "all" ? 1 : kMostPreviewOrdinals)) {
    DeviceInfo gpu;
    gpu.ordinal = ordinal;
    gpu.name = "GPU " + std::to_string(ordinal) + " (preview)";
    gpu.can_map_host_memory = true;  // every GPU CUDA 11.8+ supports can
    plan.devices.push_back(gpu);
  }
  return plan;
}

CaseContext case_context(const RunOptions& options, const RunPlan& plan, std::size_t cases) {
  CaseContext context;
  context.images = plan.images;
  context.stopping_rule = preset_stopping_rule(options.preset, cases);
  if (options.profile) {
    context.stopping_rule.exact_measurements = kProfileIterations;
  } else {
    if (const auto min_time = benchmark_flag(options.benchmark_flags, "min_time")) {
      context.stopping_rule.min_seconds = min_time_seconds(*min_time);
    }
    context.stopping_rule.bank = std::make_shared<TimeBank>();
  }
  if (options.watchdog_s) {
    context.pipeline_watchdog = std::chrono::duration<double>(*options.watchdog_s);
  }
  return context;
}

SuiteSelection select_cases(const RunPlan& plan, const std::string& filter,
                            const std::string& benchmark_filter) {
  SuiteSelection selection;
  const std::regex pattern(filter.empty() ? std::string(".*") : filter);
  for (const Family& family : registered_families()) {
    if (family.needs_gpu && plan.devices.empty()) {
      selection.skipped_families.push_back({family.name, "no usable GPU: " + plan.no_gpu_reason});
      continue;
    }
    if (family.sample == SampleUse::image && !image_member(plan.sample)) {
      selection.skipped_families.push_back(
          {family.name,
           fmt::format("the sample {} has no image member (a fixed 3xHxW one)", plan.sample.name)});
      continue;
    }
    for (BenchmarkCase& bench_case : family.cases(plan)) {
      bench_case.needs_gpu = family.needs_gpu;
      if (std::regex_search(bench_case.name, pattern) &&
          benchmark_filter_matches(benchmark_filter, bench_case.name)) {
        selection.cases.push_back(std::move(bench_case));
      }
    }
  }
  return selection;
}

SuiteRun run_selection(const SuiteSelection& selection, const RunOptions& options,
                       const CaseContext& context, const std::string& program) {
  // The stopping rule (case_context) decides how long a case measures, so Google Benchmark is given
  // no minimum time; --benchmark_repetitions goes through for whoever wants its aggregates.
  std::vector<std::string> words{program};
  for (const std::string& flag : options.benchmark_flags) {
    // select_cases applied the filter; the minimum time went into the stopping rule.
    if (flag.rfind("--benchmark_filter", 0) != 0 && flag.rfind("--benchmark_min_time=", 0) != 0) {
      words.push_back(flag);
    }
  }
  std::vector<char*> argv;
  for (auto& word : words) {
    argv.push_back(word.data());
  }
  int argc = static_cast<int>(argv.size());
  benchmark::Initialize(&argc, argv.data());
  if (argc > 1) {
    throw UsageError(fmt::format("Google Benchmark did not take the flag '{}'", argv[1]));
  }

  benchmark::ClearRegisteredBenchmarks();
  CaseOutcomeLog log;
  for (const BenchmarkCase& bench_case : selection.cases) {
    // One body call a repetition, which measures until its stopping rule says so (MeasurementLoop):
    // no sizing runs, and each case's setup is done once.
    benchmark::RegisterBenchmark(bench_case.name.c_str(),
                                 [&bench_case, &context, &log](benchmark::State& state) {
                                   run_case(bench_case, context, log, state);
                                 })
        ->Unit(benchmark::kMicrosecond)
        ->UseManualTime()
        ->Iterations(1);
  }

  const std::string colour = benchmark_flag(options.benchmark_flags, "color").value_or("auto");
  CaseRowSource rows;
  for (const BenchmarkCase& bench_case : selection.cases) {
    if (bench_case.declared_name) {
      rows.metrics[bench_case.name] = primary_metric(bench_case.declared_name->declaration(),
                                                     [](const std::string&) { return true; });
    }
  }
  rows.was_skipped = [&log](const std::string& name) {
    const auto skipped = log.outcomes().skipped;
    return std::any_of(skipped.begin(), skipped.end(),
                       [&](const CaseProblem& problem) { return problem.name == name; });
  };
  CapturingReporter reporter(
      options.console, colour == "auto" ? isatty(STDOUT_FILENO) != 0 : parse_benchmark_bool(colour),
      parse_benchmark_bool(
          benchmark_flag(options.benchmark_flags, "counters_tabular").value_or("true")),
      selection.cases.size(), std::move(rows));
  const std::size_t ran = benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::ClearRegisteredBenchmarks();
  if (ran == 0 || reporter.json().empty()) {
    throw UsageError("no case ran: Google Benchmark's flags left none of the selected cases");
  }
  nlohmann::json report = parse_benchmark_json(reporter.json());
  strip_timing_suffixes(report);
  return {std::move(report), log.outcomes()};
}

void add_declarations(nlohmann::json& report, const SuiteSelection& selection) {
  std::map<std::string, const CaseName*> declared;
  std::vector<FamilyAxes> families;
  for (const BenchmarkCase& bench_case : selection.cases) {
    if (!bench_case.declared_name) {
      continue;  // a skipped case: its name is its reason's, it measured nothing
    }
    declared[bench_case.name] = &*bench_case.declared_name;
    const FamilyAxes* family = bench_case.declared_name->declaration();
    if (std::none_of(families.begin(), families.end(),
                     [&](const FamilyAxes& f) { return f.family == family->family; })) {
      families.push_back(*family);
    }
  }
  for (auto& entry : report["benchmarks"]) {
    const auto found = declared.find(entry.value("run_name", entry.value("name", std::string())));
    if (found != declared.end()) {
      entry["axes"] = entry_axes(*found->second);
    }
  }
  report["h2dbench"]["declarations"] = declarations_to_json(families);
}

}  // namespace h2d
