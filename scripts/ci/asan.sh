#!/usr/bin/env bash
# AddressSanitizer and UndefinedBehaviorSanitizer over every test: the `asan` preset, built on the
# simulated GPU (no nvcc device compile, and the GPU tests run too, their kernels on the sim's
# fibers, which tell ASan about each stack switch) with warnings as errors (its one documented
# exception, GCC's false -Wmaybe-uninitialized under ASan, is in the top CMakeLists.txt).
# Fails on any test failure and on any sanitizer report, in the tests or in a child h2dbench
# they start (the environment below reaches them). scripts/ci/fuzz-reports.sh reuses this build.
set -euo pipefail
source "$(dirname "$0")/../common.sh"
cd "$h2d_root"
h2d_find_nvcc  # the toolkit's headers: the sim implements CUDA's own declarations
started=$SECONDS

h2d_build asan --target h2d_tests h2dbench
built=$SECONDS

# UBSan keeps going after a report (the build does not use -fno-sanitize-recover): the log is
# searched for "runtime error:" instead. LSan runs at every exit.
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:exitcode=66"
export UBSAN_OPTIONS="print_stacktrace=1"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
build/asan/h2d_tests --gtest_brief=1 "$@" >"$log" 2>&1 || status=$?
cat "$log"  # brief: the failures and the totals
if grep -qE "ERROR: (Address|Leak)Sanitizer|runtime error:" "$log"; then
  grep -m5 -E "ERROR: (Address|Leak)Sanitizer|runtime error:" "$log" >&2
  echo "asan.sh: a sanitizer reported a problem (see above)" >&2
  exit 1
fi
if [ "$status" -ne 0 ]; then
  echo "asan.sh: the tests failed under ASan+UBSan (exit $status)" >&2
  exit "$status"
fi
echo "asan.sh: every test clean under AddressSanitizer and UndefinedBehaviorSanitizer on the" \
  "simulated GPU ($((SECONDS - started)) s: build $((built - started)) s, tests $((SECONDS - built)) s)"
