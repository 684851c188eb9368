#!/usr/bin/env bash
# Reports from other machines are untrusted input (issue 17): a seeded mutation corpus of a real
# report, made here with `h2dbench run --preset quick` (host-only without a GPU), goes through
# compare, summary and plots/plot_reports.py, each with a timeout, the C++ side built with
# AddressSanitizer and UndefinedBehaviorSanitizer (the `asan` preset). Fails on any crash,
# sanitizer report, Python traceback, hang, or exit code other than 0 (drawn/compared) and 2 (a
# clear refusal).
#
#   scripts/checks/fuzz-reports.sh [VARIANTS (1000)] [SEED (17)]
#
# Not run by CI yet: under ASan it takes well over 10 minutes on a 2-core machine, and CI's 90
# minutes already hold the toolkit, sanitizer and simulator builds. Run it before a release.
#
# H2D_FUZZ_PLOTS_EVERY=N draws every Nth variant (default 10; 1 draws all of them): a plot run
# costs seconds of matplotlib where a compare costs a fraction of one, and drawing all 1000 takes
# over half an hour on a 2-core machine. 1000 variants with every 10th drawn took 578 s (release
# build, 2 jobs, on a loaded 2-core machine). H2D_FUZZ_PRESET=ci fuzzes the plain
# release build instead, for a quick local look (the default is asan). H2D_FUZZ_JOBS: parallel runs (2).
set -euo pipefail
source "$(dirname "$0")/../common.sh"
cd "$h2d_root"
h2d_find_nvcc
variants=${1:-1000}
seed=${2:-17}
jobs=${H2D_FUZZ_JOBS:-2}
per_run_timeout=${H2D_FUZZ_TIMEOUT_S:-30}  # a sanitized compare of 100k cases takes ~5 s
started=$(date +%s)

python=""
for candidate in /usr/bin/python3 python3; do
  if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c "import matplotlib" 2>/dev/null; then
    python=$candidate
    break
  fi
done
if [ -z "$python" ]; then
  echo "fuzz-reports.sh: no python3 with matplotlib (apt-get install python3-matplotlib)" >&2
  exit 1
fi

preset=${H2D_FUZZ_PRESET:-asan}
plots_every=${H2D_FUZZ_PLOTS_EVERY:-10}
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" --target h2dbench
h2dbench=$h2d_root/build/$preset/h2dbench
# protect_shadow_gap=0: the CUDA runtime maps memory where ASan's shadow gap would be.
export ASAN_OPTIONS="protect_shadow_gap=0:detect_leaks=1:exitcode=66"
export UBSAN_OPTIONS="print_stacktrace=1"
export MPLBACKEND=Agg

work=$(mktemp -d "${TMPDIR:-/tmp}/h2d-fuzz-reports.XXXXXX")
trap 'rm -rf "$work"' EXIT
"$h2dbench" run --preset quick --out "$work/seed.json" >"$work/seed.log" 2>&1 || {
  cat "$work/seed.log" >&2
  echo "fuzz-reports.sh: the seed run failed" >&2
  exit 1
}
"$python" scripts/checks/fuzz_reports_corpus.py "$work/seed.json" "$work/corpus" "$variants" "$seed"

# One variant through the three readers; prints "FAIL variant: reason" lines, nothing when clean.
fuzz_one() {
  local variant=$1 name out status tools="compare summary"
  name=$(basename "$variant" .json)
  if [ $((10#${name#v} % plots_every)) -eq 0 ]; then
    tools+=" plots"
  fi
  for tool in $tools; do
    out="$work/out/$name.$tool"
    mkdir -p "$work/out"
    status=0
    case $tool in
      compare) timeout -k 5 "$per_run_timeout" "$h2dbench" compare "$work/seed.json" "$variant" \
                 >"$out" 2>&1 || status=$? ;;
      summary) timeout -k 5 "$per_run_timeout" "$h2dbench" summary "$variant" >"$out" 2>&1 \
                 || status=$? ;;
      plots) timeout -k 5 "$per_run_timeout" "$python" plots/plot_reports.py "$variant" \
               -o "$work/figures/$name" >"$out" 2>&1 || status=$? ;;
    esac
    if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
      echo "FAIL $name $tool: no answer within ${per_run_timeout} s"
    elif [ "$status" -ne 0 ] && [ "$status" -ne 2 ]; then
      echo "FAIL $name $tool: exit $status: $(tail -c 300 "$out" | tr '\n' ' ')"
    elif grep -qE "AddressSanitizer|LeakSanitizer|runtime error:|Traceback \(most recent" "$out"; then
      echo "FAIL $name $tool: $(grep -m1 -E "Sanitizer|runtime error:|Traceback" "$out")"
    else
      rm -f "$out"
    fi
  done
  rm -rf "$work/figures/$name"
}
export -f fuzz_one
export work h2dbench python per_run_timeout plots_every

find "$work/corpus" -name '*.json' | sort | xargs -P "$jobs" -I{} bash -c 'fuzz_one "$1"' _ {} \
  >"$work/failures.txt"
elapsed=$(($(date +%s) - started))
if [ -s "$work/failures.txt" ]; then
  head -40 "$work/failures.txt" >&2
  echo "fuzz-reports.sh: $(wc -l <"$work/failures.txt") failures over $variants variants (seed $seed, ${elapsed} s)" >&2
  exit 1
fi
echo "fuzz-reports.sh: $variants variants (seed $seed, $preset build) through compare and summary, every ${plots_every}. through the plots: no crash, sanitizer report, traceback or hang (${elapsed} s)"
