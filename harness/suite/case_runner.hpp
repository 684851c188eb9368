#pragma once

#include <benchmark/benchmark.h>

#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "harness/suite/family.hpp"

namespace h2d {

// Why a case produced no measurement, as data: readers count and group by it, never by the text.
enum class ProblemKind {
  cannot_run,          // skipped: it cannot run here (pinned cap, memory, no nvJPEG, ...)
  interrupted,         // skipped: the run was interrupted (Ctrl-C) before it completed
  after_sticky_error,  // skipped: an earlier case lost the GPU to a sticky CUDA error
  failed,              // it ran and went wrong (wrong data, a CUDA error, a stall)
  sticky_error,        // failed, and its CUDA error ended the GPU for the rest of the run
};

// "cannot_run", "interrupted", ...: as the report's skipped_cases and failed_cases write it.
std::string_view to_string(ProblemKind kind);

// A case that did not produce a measurement, and why.
struct CaseProblem {
  std::string name;
  std::string reason;
  ProblemKind kind = ProblemKind::cannot_run;
};

// What happened to the cases of a run, besides their measurements.
struct CaseOutcomes {
  std::vector<CaseProblem> skipped;  // could not run here (pinned cap, too little memory, ...)
  std::vector<CaseProblem> failed;   // ran and went wrong (wrong data, CUDA error)
};

// What happened to the cases of one run (run_selection makes one): filled by run_case, read once
// the run is over. Each case's problem is kept once (a case with repetitions may end early in
// several). Thread-safe.
class CaseOutcomeLog {
 public:
  void record(CaseProblem problem);
  CaseOutcomes outcomes() const;

 private:
  mutable std::mutex mutex_;
  CaseOutcomes outcomes_;
};

// Runs one case body inside its NVTX range, writes its numeric parameters as counters, and turns
// exceptions into Google Benchmark errors recorded in `log`: a case that cannot run is
// skipped with its reason and the suite goes on; a case whose data was wrong fails the run.
// A sticky CUDA error (is_sticky_cuda_error) fails its case and prints one line saying so; every
// GPU case after it is skipped with that reason, host cases still run. With latches off for the
// run (context.latching off), every case reports latched=0.
void run_case(const BenchmarkCase& bench_case, const CaseContext& context, CaseOutcomeLog& log,
              benchmark::State& state);

// The first sticky CUDA error of this process ("" before one): the GPU is unusable from then on,
// for every later run in the process too, so this one is process-wide.
std::string sticky_cuda_error();

}  // namespace h2d
