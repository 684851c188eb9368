#pragma once

#include <benchmark/benchmark.h>

#include <map>
#include <stdexcept>
#include <string>
#include <utility>

#include "harness/core/case_name.hpp"
#include "harness/core/device_info.hpp"
#include "harness/suite/family.hpp"

namespace h2d {

// How every family in benchmarks/families/ builds a case, so that each says only what differs:
// its keys, its counters and the function that runs it.

// `family` (a declared one: harness/core/family_declarations.cpp) followed by gpu=N when the run
// uses more than one GPU: one-GPU runs keep the short names their reports have always had, and
// several-GPU runs cannot mix up the same case on two.
CaseName case_name_on(const std::string& family, const RunPlan& plan, const DeviceInfo& gpu);

// The case called `name` whose body calls run(settings..., state, context), on copies of `settings`
// taken now: a family's loop variables change after the case is built, its body runs much later.
// `params` are the numeric parameters also written as counters.
template <typename Run, typename... Settings>
BenchmarkCase make_case(const CaseName& name, std::map<std::string, double> params, Run run,
                        Settings... settings) {
  if (name.declaration() == nullptr) {  // found when the cases are listed, not after a run
    throw std::logic_error(name.family() +
                           ": a case name built without its family's declaration "
                           "(use CaseName(declared_family(...)) or case_name_on)");
  }
  BenchmarkCase bench_case;
  bench_case.name = name.str();
  bench_case.declared_name = name;
  bench_case.params = std::move(params);
  bench_case.body = [run, settings...](benchmark::State& state, const CaseContext& context) {
    run(settings..., state, context);
  };
  return bench_case;
}

}  // namespace h2d
