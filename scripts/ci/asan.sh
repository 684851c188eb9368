#!/usr/bin/env bash
# AddressSanitizer and UndefinedBehaviorSanitizer over the tests: the `asan` preset, built on the
# simulated GPU (no nvcc device compile, and GPU tests run too, their kernels on the sim's fibers,
# which tell ASan about each stack switch) with warnings as errors. Built with Clang: from an
# empty compiler cache CI built the preset in 515 s against GCC's 857 (issue 29); GCC's
# warnings are the `ci` preset's, and GCC's ASan still builds (its one documented exception, a
# false -Wmaybe-uninitialized, is in the top CMakeLists.txt).
# Fails on any test failure and on any sanitizer report, in the tests or in a child h2dbench
# they start (the environment below reaches them). scripts/ci/fuzz-reports.sh reuses this build.
set -euo pipefail
source "$(dirname "$0")/../common.sh"
cd "$h2d_root"
h2d_find_nvcc  # the toolkit's headers: the sim implements CUDA's own declarations
h2d_need_clang_sanitizer address,undefined
started=$SECONDS

h2d_build asan --target h2d_tests h2dbench
built=$SECONDS

# UBSan keeps going after a report (the build does not use -fno-sanitize-recover): the logs are
# searched for "runtime error:" instead. LSan runs at every exit.
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:exitcode=66"
export UBSAN_OPTIONS="print_stacktrace=1"
# Two runs side by side, one core each: the host tests, and the GPU tests one at a time (as
# ctest's `gpu` lock runs them). Left out, because sim.sh runs them on the sim and under ASan
# they cost ten minutes or judge speed that ASan distorts: whole quick runs of the families
# (BatchRunGpu alone is 460 s), the pipeline verdicts' stage timing (host and GPU) and the
# measurement math's rates (host-timed copies land through ASan's slower memcpy).
# One host test (20 s) runs beside the GPU tests, which balances the two (about 230 s each).
moved=NvtxTimeline.ProfileModeRunsEveryCaseOnceWithFixedIterations
host_filter="-*Gpu*:HostPipeline.*IsJudged*:$moved"
gpu_filter="*Gpu*:$moved"
gpu_filter+='-BatchRunGpu.*:PinCostFamilyGpu.*:StagingFamilyGpu.*:StreamsFamilyGpu.*'
gpu_filter+=':ZeroCopyFamilyGpu.*:GpuMemoryFamily.*:GpuPipeline.VerdictFollowsTheSlowestStage'
gpu_filter+=':SimMeasurementGpu.*'
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
build/asan/h2d_tests --gtest_brief=1 --gtest_filter="$host_filter" "$@" >"$logs/host.log" 2>&1 &
host_pid=$!
gpu_status=0
build/asan/h2d_tests --gtest_brief=1 --gtest_filter="$gpu_filter" "$@" >"$logs/gpu.log" 2>&1 ||
  gpu_status=$?
host_status=0
wait "$host_pid" || host_status=$?
cat "$logs/host.log" "$logs/gpu.log"  # brief: the failures and the totals
if grep -qE "ERROR: (Address|Leak)Sanitizer|runtime error:" "$logs"/*.log; then
  grep -h -m5 -E "ERROR: (Address|Leak)Sanitizer|runtime error:" "$logs"/*.log >&2
  echo "asan.sh: a sanitizer reported a problem (see above)" >&2
  exit 1
fi
if [ "$host_status" -ne 0 ] || [ "$gpu_status" -ne 0 ]; then
  echo "asan.sh: the tests failed under ASan+UBSan (host tests exit $host_status, GPU tests" \
    "exit $gpu_status)" >&2
  exit 1
fi
echo "asan.sh: the host tests and the GPU tests above clean under AddressSanitizer and" \
  "UndefinedBehaviorSanitizer on the simulated GPU ($((SECONDS - started)) s: build" \
  "$((built - started)) s, tests $((SECONDS - built)) s)"
