#!/usr/bin/env bash
# AddressSanitizer and UndefinedBehaviorSanitizer over the host tests (GPU tests skip without a
# GPU, as everywhere): the `asan` preset, built with warnings as errors (its one documented
# exception is in harness/CMakeLists.txt: GCC 12's false -Wmaybe-uninitialized in <regex>).
# Fails on any test failure and on any sanitizer report, in the tests or in a child h2dbench
# they start (the environment below reaches them).
set -euo pipefail
source "$(dirname "$0")/../common.sh"
cd "$h2d_root"
h2d_find_nvcc

cmake --preset asan >/dev/null
cmake --build --preset asan --target h2d_tests h2dbench

# protect_shadow_gap=0: the CUDA runtime maps memory where ASan's shadow gap would be.
# UBSan keeps going after a report (the build does not use -fno-sanitize-recover): the log is
# searched for "runtime error:" instead.
export ASAN_OPTIONS="protect_shadow_gap=0:detect_leaks=1:halt_on_error=1:exitcode=66"
export UBSAN_OPTIONS="print_stacktrace=1"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
build/asan/h2d_tests "$@" 2>&1 | tee "$log" || status=$?
if grep -qE "ERROR: (Address|Leak)Sanitizer|runtime error:" "$log"; then
  grep -m5 -E "ERROR: (Address|Leak)Sanitizer|runtime error:" "$log" >&2
  echo "asan.sh: a sanitizer reported a problem (see above)" >&2
  exit 1
fi
if [ "$status" -ne 0 ]; then
  echo "asan.sh: the host tests failed under ASan+UBSan (exit $status)" >&2
  exit "$status"
fi
echo "asan.sh: host tests clean under AddressSanitizer and UndefinedBehaviorSanitizer"
