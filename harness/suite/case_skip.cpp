#include "harness/suite/case_skip.hpp"

namespace h2d {

BenchmarkCase skipped_case(const std::string& name, const std::string& reason) {
  BenchmarkCase bench_case;
  bench_case.name = name;
  bench_case.body = [reason](benchmark::State&, const CaseContext&) { throw CaseSkipped(reason); };
  return bench_case;
}

}  // namespace h2d
