#!/usr/bin/env bash
# The planted defects of tests/mutants/ must still apply to the code they mutate: a patch that no
# longer applies is found here in a second, not after scripts/ci/sim.sh's twenty-minute build.
# Usage: tests/mutants_apply_test.sh SOURCE_DIR
set -euo pipefail
cd "$1"
status=0
for patch in tests/mutants/*.patch; do
  if ! git apply --check "$patch" 2>/dev/null; then
    echo "$patch does not apply any more to $(sed -n 's|^+++ b/||p' "$patch" | paste -sd' '):" \
      "regenerate it (make its change, then git diff, under its two description lines)" >&2
    status=1
  fi
done
exit $status
