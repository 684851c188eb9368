#!/usr/bin/env bash
# Planted defects must be caught: applies each patch of tests/mutants/ (one classic GPU bug each,
# described on its first line) to a scratch copy of the tree, one at a time, rebuilds it on the
# simulated GPU and requires the sim test suite below to fail. A mutant that survives is a test
# that is missing. The unmutated copy must pass first, or every mutant would look caught.
#   bash scripts/checks/sim-mutants.sh [MUTANT...]   (names of tests/mutants/*.patch; default: all)
# The scratch copy is build/mutants/src (ignored by git), built with the sim-coverage preset, the
# one scripts/checks/sim-full.sh builds too: with ccache, the copy and the tree compile each object once.
set -euo pipefail
source "$(dirname "$0")/../common.sh"
cd "$h2d_root"
h2d_prepare
started=$SECONDS

# The GPU suites that verify what arrived and what was timed: a wrong stream, a missing wait or a
# read too early shows in one of them.
filter='SimMeasurementGpu.*:GpuPipeline*.*:GpuMemoryFamily.*:BatchGpu.*:GpuLatch.*:LatchedStreamsGpu.*:GpuAsync.*:GpuCopies.*:StreamsFamilyGpu.*'
preset=sim-coverage
scratch=build/mutants/src

mutants=()
if [ $# -gt 0 ]; then
  for name in "$@"; do
    [ -f "tests/mutants/$name.patch" ] || {
      echo "sim-mutants.sh: no mutant '$name'; valid: $(cd tests/mutants && ls ./*.patch | sed 's|^\./||; s|\.patch$||' | paste -sd' ')" >&2
      exit 2
    }
    mutants+=("tests/mutants/$name.patch")
  done
else
  mutants=(tests/mutants/*.patch)
fi

# A fresh copy of what git tracks (and what is new but not ignored), never of build/.
rm -rf "$scratch"
mkdir -p "$scratch"
git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$scratch"
# Objects do not depend on where the copy lives (ccache: paths relative to the base folder,
# debug info's folder not hashed), so only what a mutant changes is compiled again.
export CCACHE_BASEDIR=$h2d_root CCACHE_NOHASHDIR=true

run_suite() {  # the suite on the copy's build; its output in $scratch/suite.log
  timeout 600 "$scratch/build/$preset/h2d_tests" --gtest_filter="$filter" --gtest_brief=1 \
    --gtest_fail_fast >"$scratch/suite.log" 2>&1
}
build_copy() {
  (cd "$scratch" && cmake --preset "$preset" >/dev/null &&
    cmake --build --preset "$preset" --target h2dbench h2d_tests >"build.log" 2>&1)
}

echo "sim-mutants.sh: building the unmutated copy ($preset)"
build_copy || { tail -n 30 "$scratch/build.log" >&2; echo "sim-mutants.sh: the copy did not build" >&2; exit 1; }
if ! run_suite; then
  tail -n 30 "$scratch/suite.log" >&2
  echo "sim-mutants.sh: the unmutated copy fails $filter: fix that first" >&2
  exit 1
fi
echo "sim-mutants.sh: the unmutated copy passes ($((SECONDS - started)) s so far)"

survivors=()
for patch in "${mutants[@]}"; do
  name=$(basename "$patch" .patch)
  patch --quiet --no-backup-if-mismatch -p1 -d "$scratch" <"$patch" ||
    { echo "sim-mutants.sh: $patch does not apply any more; update it" >&2; exit 1; }
  mutant_started=$SECONDS
  if ! build_copy; then
    tail -n 20 "$scratch/build.log" >&2
    echo "sim-mutants.sh: mutant $name does not compile; a mutant must build and be caught by a test" >&2
    exit 1
  fi
  if run_suite; then
    echo "sim-mutants.sh: SURVIVED $name: $(head -n1 "$patch")"
    survivors+=("$name")
  else
    caught=$(grep -m1 -E '^\[  FAILED  \]' "$scratch/suite.log" || echo "(timed out)")
    echo "sim-mutants.sh: caught $name by $caught ($((SECONDS - mutant_started)) s)"
  fi
  patch --quiet --no-backup-if-mismatch -R -p1 -d "$scratch" <"$patch"
done

echo "sim-mutants.sh: ${#mutants[@]} mutants, ${#survivors[@]} survived, $((SECONDS - started)) s"
if [ ${#survivors[@]} -gt 0 ]; then
  echo "sim-mutants.sh: each survivor is a missing test: ${survivors[*]}" >&2
  exit 1
fi
