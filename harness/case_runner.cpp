#include "harness/case_runner.hpp"

#include <mutex>
#include <new>

#include "harness/cuda_error.hpp"
#include "harness/nvtx.hpp"
#include "harness/pinned_budget.hpp"
#include "harness/stop_signal.hpp"

namespace h2d {
namespace {

std::mutex& outcomes_mutex() {
  static std::mutex mutex;
  return mutex;
}

CaseOutcomes& outcomes() {
  static CaseOutcomes recorded;
  return recorded;
}

// GB calls a body several times while it sizes the iteration count; record each problem once.
void record(std::vector<CaseProblem>& list, const std::string& name, const std::string& reason) {
  for (const auto& problem : list) {
    if (problem.name == name) {
      return;
    }
  }
  list.push_back({name, reason});
}

bool is_resource_shortage(const CudaError& error) {
  return error.code() == cudaErrorMemoryAllocation;
}

}  // namespace

void run_case(const BenchmarkCase& bench_case, benchmark::State& state) {
  if (stop_requested()) {  // Ctrl-C: the cases left are skipped at once, and the report written
    static const std::string reason = "the run was interrupted before this case completed";
    std::lock_guard<std::mutex> lock(outcomes_mutex());
    record(outcomes().skipped, bench_case.name, reason);
    state.SkipWithError(reason.c_str());
    return;
  }
  NvtxRange range(NvtxCategory::bench_case, bench_case.name);
  try {
    bench_case.body(state);
    for (const auto& [key, value] : bench_case.params) {
      state.counters[key] = value;
    }
  } catch (const RunInterrupted& error) {
    std::lock_guard<std::mutex> lock(outcomes_mutex());
    record(outcomes().skipped, bench_case.name, error.what());
    state.SkipWithError(error.what());
  } catch (const PinnedBudgetExceeded& error) {
    std::lock_guard<std::mutex> lock(outcomes_mutex());
    record(outcomes().skipped, bench_case.name, error.what());
    state.SkipWithError(error.what());
  } catch (const std::bad_alloc&) {
    std::lock_guard<std::mutex> lock(outcomes_mutex());
    record(outcomes().skipped, bench_case.name, "not enough host memory");
    state.SkipWithError("not enough host memory");
  } catch (const CudaError& error) {
    std::lock_guard<std::mutex> lock(outcomes_mutex());
    record(is_resource_shortage(error) ? outcomes().skipped : outcomes().failed, bench_case.name,
           error.what());
    state.SkipWithError(error.what());
  } catch (const std::exception& error) {
    std::lock_guard<std::mutex> lock(outcomes_mutex());
    record(outcomes().failed, bench_case.name, error.what());
    state.SkipWithError(error.what());
  }
}

CaseOutcomes case_outcomes() {
  std::lock_guard<std::mutex> lock(outcomes_mutex());
  return outcomes();
}

void clear_case_outcomes() {
  std::lock_guard<std::mutex> lock(outcomes_mutex());
  outcomes() = {};
}

}  // namespace h2d
