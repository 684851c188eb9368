#include "harness/suite/case_runner.hpp"

#include <mutex>
#include <new>
#include <utility>

#include <fmt/format.h>

#include "harness/core/pinned_budget.hpp"
#include "harness/core/sticky_cuda_error.hpp"
#include "harness/core/stop_signal.hpp"
#include "harness/cuda/cuda_error.hpp"
#include "harness/measure/counters.hpp"
#include "harness/suite/case_skip.hpp"
#include "harness/trace/nvtx.hpp"

namespace h2d {
namespace {

std::mutex& sticky_mutex() {
  static std::mutex mutex;
  return mutex;
}

bool is_skip(ProblemKind kind) {
  return kind == ProblemKind::cannot_run || kind == ProblemKind::interrupted ||
         kind == ProblemKind::after_sticky_error;
}

// Never reset: a sticky error ends the CUDA context for the life of the process.
std::string& sticky_error() {
  static std::string first;
  return first;
}

// Called by the first case whose CUDA error is sticky.
void note_sticky_error(const std::string& name, const std::string& reason) {
  std::lock_guard<std::mutex> lock(sticky_mutex());
  if (sticky_error().empty()) {
    sticky_error() = reason;
    fmt::print(stderr, "h2dbench: {} failed with a sticky CUDA error; {}\n", name,
               sticky_error_consequence());
  }
}

// Records the problem (once per case) and ends the case in Google Benchmark with its reason.
void end_case(ProblemKind kind, const std::string& name, const std::string& reason,
              CaseOutcomeLog& log, benchmark::State& state) {
  log.record({name, reason, kind});
  if (kind == ProblemKind::sticky_error) {
    note_sticky_error(name, reason);
  }
  state.SkipWithError(reason.c_str());
  // Google Benchmark aborts the whole process (ComputeStats) when the repetitions of a case count
  // different iterations, and a repetition that ends before its loop counts none: Ctrl-C between
  // repetitions, or a skip in the setup of the second one. Entering the loop after the error runs
  // no iteration but counts the planned ones, like a repetition that failed inside its loop.
  if (state.iterations() == 0) {  // the loop never started
    for (auto _ : state) {
    }
  }
}

// Why a case ended early, and whether that is a skip (it cannot run here: no room, interrupted)
// or a failure (it ran and went wrong). Called from inside a catch block.
std::pair<ProblemKind, std::string> classify_current_exception() {
  try {
    throw;
  } catch (const RunInterrupted& error) {
    return {ProblemKind::interrupted, error.what()};
  } catch (const CaseSkipped& error) {
    return {ProblemKind::cannot_run, error.what()};
  } catch (const PinnedBudgetExceeded& error) {
    return {ProblemKind::cannot_run, error.what()};
  } catch (const std::bad_alloc&) {
    return {ProblemKind::cannot_run, "not enough host memory"};
  } catch (const CudaError& error) {
    const bool shortage = error.code() == cudaErrorMemoryAllocation;
    if (is_sticky_cuda_error(static_cast<int>(error.code()))) {
      return {ProblemKind::sticky_error, error.what()};
    }
    return {shortage ? ProblemKind::cannot_run : ProblemKind::failed, error.what()};
  } catch (const std::exception& error) {
    return {ProblemKind::failed, error.what()};
  } catch (...) {
    return {ProblemKind::failed, "an exception that is not a std::exception"};
  }
}

}  // namespace

void CaseOutcomeLog::record(CaseProblem problem) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<CaseProblem>& list = is_skip(problem.kind) ? outcomes_.skipped : outcomes_.failed;
  for (const auto& recorded : list) {
    if (recorded.name == problem.name) {
      return;
    }
  }
  list.push_back(std::move(problem));
}

CaseOutcomes CaseOutcomeLog::outcomes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return outcomes_;
}

void run_case(const BenchmarkCase& bench_case, const CaseContext& context, CaseOutcomeLog& log,
              benchmark::State& state) {
  if (stop_requested()) {  // Ctrl-C: the cases left are skipped at once, and the report written
    end_case(ProblemKind::interrupted, bench_case.name, kInterruptedBeforeCase, log, state);
    return;
  }
  if (const std::string lost = sticky_cuda_error(); bench_case.needs_gpu && !lost.empty()) {
    end_case(ProblemKind::after_sticky_error, bench_case.name,
             fmt::format("not run: an earlier case hit a sticky CUDA error ({})", lost), log,
             state);
    return;
  }
  NvtxRange range(NvtxCategory::bench_case, bench_case.name);
  try {
    bench_case.body(state, context);
    for (const auto& [key, value] : bench_case.params) {
      set_counter(state, key, value);
    }
    if (context.latching == Latching::off) {
      // The run decided at startup: nothing waited behind a latch.
      set_counter(state, "latched", 0);
    }
  } catch (...) {
    const auto [kind, reason] = classify_current_exception();
    end_case(kind, bench_case.name, reason, log, state);
  }
}

std::string_view to_string(ProblemKind kind) {
  switch (kind) {
    case ProblemKind::cannot_run:
      return "cannot_run";
    case ProblemKind::interrupted:
      return "interrupted";
    case ProblemKind::after_sticky_error:
      return "after_sticky_error";
    case ProblemKind::failed:
      return "failed";
    case ProblemKind::sticky_error:
      return "sticky_error";
  }
  return "unknown";
}

std::string sticky_cuda_error() {
  std::lock_guard<std::mutex> lock(sticky_mutex());
  return sticky_error();
}

}  // namespace h2d
