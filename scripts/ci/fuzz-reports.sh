#!/usr/bin/env bash
# Reports from other machines are untrusted input (issue 17): a seeded mutation corpus of a real
# report goes through compare, summary and plots/plot_reports.py, each with a timeout, the C++
# side built with AddressSanitizer and UndefinedBehaviorSanitizer (the `asan` preset, which
# scripts/ci/asan.sh has built just before). Fails on any crash, sanitizer report, Python
# traceback, hang, or exit code other than 0 (drawn/compared) and 2 (a clear refusal).
#
#   scripts/ci/fuzz-reports.sh [VARIANTS (1000)] [SEED (17)]
#
# The seed is made here: `h2dbench run --preset quick` on the simulated GPU over a few small cases
# of every family a figure draws (a whole quick run takes minutes on the sim). Most variants keep
# one or two of its families (scripts/ci/fuzz_reports_corpus.py), and all of them go through the
# plots in one Python process (scripts/ci/fuzz_plots.py) beside the compare and summary runs, one
# core each. H2D_FUZZ_TIMEOUT_S: the limit per run (30 s).
set -euo pipefail
source "$(dirname "$0")/../common.sh"
cd "$h2d_root"
h2d_find_nvcc
variants=${1:-1000}
seed=${2:-17}
per_run_timeout=${H2D_FUZZ_TIMEOUT_S:-30}  # a sanitized compare of 100k cases takes ~5 s
started=$SECONDS

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

h2d_build asan --target h2dbench >/dev/null  # up to date after asan.sh
h2dbench=$h2d_root/build/asan/h2dbench
export ASAN_OPTIONS="detect_leaks=1:exitcode=66"
export UBSAN_OPTIONS="print_stacktrace=1"
export MPLBACKEND=Agg
built=$SECONDS

work=$(mktemp -d "${TMPDIR:-/tmp}/h2d-fuzz-reports.XXXXXX")
trap 'rm -rf "$work"' EXIT
seed_filter='^(h2d/memory/dir=h2d/kind=(pinned|pageable)/mode=async/bytes=(4KiB|1MiB)'
seed_filter+='|h2d/streams|h2d/batch/task=train/layout=tuple/pin=(none|pinned_slots)/batch=1'
seed_filter+='|h2d/staging/strategy=(driver|register)/|pipeline/train|multi/|host/memcpy'
seed_filter+='|host/first_touch)'
"$h2dbench" run --preset quick --filter "$seed_filter" --out "$work/seed.json" \
  >"$work/seed.log" 2>&1 || {
  cat "$work/seed.log" >&2
  echo "fuzz-reports.sh: the seed run failed" >&2
  exit 1
}
"$python" scripts/ci/fuzz_reports_corpus.py "$work/seed.json" "$work/corpus" "$variants" "$seed"
seeded=$SECONDS

# One variant through compare and summary; prints "FAIL variant: reason" lines, nothing when clean.
fuzz_one() {
  local variant=$1 name out status
  name=$(basename "$variant" .json)
  for tool in compare summary; do
    out="$work/out/$name.$tool"
    status=0
    case $tool in
      compare) timeout -k 5 "$per_run_timeout" "$h2dbench" compare "$work/seed.json" "$variant" \
                 >"$out" 2>&1 || status=$? ;;
      summary) timeout -k 5 "$per_run_timeout" "$h2dbench" summary "$variant" >"$out" 2>&1 \
                 || status=$? ;;
    esac
    if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
      echo "FAIL $name $tool: no answer within ${per_run_timeout} s"
    elif [ "$status" -ne 0 ] && [ "$status" -ne 2 ]; then
      echo "FAIL $name $tool: exit $status: $(tail -c 300 "$out" | tr '\n' ' ')"
    elif grep -qE "AddressSanitizer|LeakSanitizer|runtime error:" "$out"; then
      echo "FAIL $name $tool: $(grep -m1 -E "Sanitizer|runtime error:" "$out")"
    fi
    rm -f "$out"
  done
}
export -f fuzz_one
export work h2dbench per_run_timeout
mkdir -p "$work/out"

# The plots (one process, every variant) beside compare and summary; the outer timeout catches a
# hang inside C code, which the per-variant alarm in fuzz_plots.py cannot interrupt.
plots_status=0
timeout -k 5 $((variants * per_run_timeout / 10 + 60)) \
  "$python" scripts/ci/fuzz_plots.py "$work/corpus" "$work/figures" "$per_run_timeout" \
  >"$work/plots.txt" 2>&1 &
plots_pid=$!
find "$work/corpus" -name '*.json' | sort | xargs -I{} bash -c 'fuzz_one "$1"' _ {} \
  >"$work/failures.txt"
wait "$plots_pid" || plots_status=$?
if [ "$plots_status" -ne 0 ]; then
  echo "FAIL plots: the fuzz process ended with exit $plots_status (124: it ran out of time)" \
    >>"$work/failures.txt"
fi
cat "$work/plots.txt" >>"$work/failures.txt"

timing="$((SECONDS - started)) s: build $((built - started)) s, seed and corpus"
timing+=" $((seeded - built)) s, runs $((SECONDS - seeded)) s"
if [ -s "$work/failures.txt" ]; then
  trap - EXIT  # the seed and the variants stay, to reproduce the failures
  head -40 "$work/failures.txt" >&2
  echo "fuzz-reports.sh: the seed and the variants are in $work (seed.json, corpus/)" >&2
  echo "fuzz-reports.sh: $(wc -l <"$work/failures.txt") failures over $variants variants (seed $seed, $timing)" >&2
  exit 1
fi
echo "fuzz-reports.sh: $variants variants (seed $seed) through compare and summary (ASan+UBSan)" \
  "and the plots: no crash, sanitizer report, traceback or hang ($timing)"
