#!/usr/bin/env bash
# Reports from other machines are untrusted input (issue 17): a seeded mutation corpus of a real
# report goes through compare, summary and plots/plot_reports.py, each with a timeout, the C++
# side built with AddressSanitizer and UndefinedBehaviorSanitizer (the `asan` preset, which
# scripts/ci/asan.sh has built just before). Fails on any crash, sanitizer report, Python
# traceback, hang, or exit code other than 0 (drawn/compared) and 2 (a clear refusal).
#
#   scripts/ci/fuzz-reports.sh [SECONDS (150)] [SEED (17)] [VARIANTS (1000), the corpus size]
#
# The seed is made here: `h2dbench run --preset quick` on the simulated GPU over a few small cases
# of every family a figure draws (a whole quick run takes minutes on the sim), by the sim-coverage
# build's h2dbench (the one scripts/ci/sim.sh builds and tests): the seed is input, not what is
# fuzzed, and under ASan its run took four times as long (158 s against 40 s). Most variants keep
# one or two of its families (scripts/ci/fuzz_reports_corpus.py), and all of them go through the
# plots in one Python process (scripts/ci/fuzz_plots.py) beside the compare and summary runs, one
# core each. The runs have a fixed budget in seconds, not in variants (issue 29): the variants go
# in a fixed order (the seed decides them) until the budget is spent, so the step costs the same
# on a slow machine and the first variants are always the same ones; at least H2D_FUZZ_MIN_VARIANTS
# (100) must get through every tool, or the step fails. H2D_FUZZ_TIMEOUT_S: the limit per run (60 s).
set -euo pipefail
source "$(dirname "$0")/../common.sh"
cd "$h2d_root"
h2d_find_nvcc
budget_s=${1:-150}
seed=${2:-17}
variants=${3:-1000}
min_variants=${H2D_FUZZ_MIN_VARIANTS:-100}
# A hang, not a slow run: the summary of a 100k-case variant (60 MB) took 22 s under ASan on an idle
# 2-core machine (2026-12-07; 14 s the day before on another), so 30 s left no room for a loaded one.
per_run_timeout=${H2D_FUZZ_TIMEOUT_S:-60}
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

h2d_need_clang_sanitizer address,undefined  # the asan preset's compiler, also when run alone
h2d_build asan --target h2dbench >/dev/null  # up to date after asan.sh
h2dbench=$h2d_root/build/asan/h2dbench
h2d_build sim-coverage --target h2dbench >/dev/null  # the seed's maker
seed_maker=$h2d_root/build/sim-coverage/h2dbench
export ASAN_OPTIONS="detect_leaks=1:exitcode=66"
export UBSAN_OPTIONS="print_stacktrace=1"
export MPLBACKEND=Agg
built=$SECONDS

work=$(mktemp -d "${TMPDIR:-/tmp}/h2d-fuzz-reports.XXXXXX")
trap 'rm -rf "$work"' EXIT
seed_filter='^(h2d/memory/dir=h2d/kind=(pinned|pageable)/mode=async/bytes=(4KiB|1MiB)'
seed_filter+='|h2d/streams|h2d/batch/task=train/layout=tuple/pin=(none|pinned_slots)/batch=1'
seed_filter+='|h2d/staging/strategy=(driver|register)/|multi/|host/memcpy|host/first_touch'
# Four pipeline cases of the nine: threads async and sync, a worker process, and decode=cpu (the
# plots tell that one apart by its axis).
seed_filter+='|pipeline/train/workers=4/(prefetch=2/pin=(pinned_ring/copy=async|none/copy=sync)'
seed_filter+='|worker=process/shm=fresh/prefetch=2/pin=none/)'
seed_filter+='|pipeline/train/.*/decode=cpu)'
"$seed_maker" run --preset quick --filter "$seed_filter" --out "$work/seed.json" \
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
mkdir -p "$work/out"

# The plots (one process) beside compare and summary, both until the budget is spent; the outer
# timeout catches a hang inside C code, which the per-variant alarm in fuzz_plots.py cannot
# interrupt.
deadline=$(($(date +%s) + budget_s))
plots_status=0
timeout -k 5 $((budget_s + per_run_timeout + 60)) \
  "$python" scripts/ci/fuzz_plots.py "$work/corpus" "$work/figures" "$per_run_timeout" "$deadline" \
  >"$work/plots.txt" 2>&1 &
plots_pid=$!
compared=0
while IFS= read -r variant && [ "$(date +%s)" -lt "$deadline" ]; do
  fuzz_one "$variant"
  compared=$((compared + 1))
done < <(find "$work/corpus" -name '*.json' | sort) >"$work/failures.txt"
wait "$plots_pid" || plots_status=$?
if [ "$plots_status" -ne 0 ]; then
  echo "FAIL plots: the fuzz process ended with exit $plots_status (124: it ran out of time)" \
    >>"$work/failures.txt"
fi
plotted=$(sed -n 's/^plotted //p' "$work/plots.txt")
plotted=${plotted:-0}
grep -v '^plotted ' "$work/plots.txt" >>"$work/failures.txt" || true
if [ "$compared" -lt "$min_variants" ] || [ "$plotted" -lt "$min_variants" ]; then
  echo "FAIL budget: $compared variants through compare and summary and $plotted through the" \
    "plots in ${budget_s} s; at least $min_variants wanted" >>"$work/failures.txt"
fi

timing="$((SECONDS - started)) s: build $((built - started)) s, seed and corpus"
timing+=" $((seeded - built)) s, runs $((SECONDS - seeded)) s"
if [ -s "$work/failures.txt" ]; then
  trap - EXIT  # the seed and the variants stay, to reproduce the failures
  head -40 "$work/failures.txt" >&2
  echo "fuzz-reports.sh: the seed and the variants are in $work (seed.json, corpus/)" >&2
  echo "fuzz-reports.sh: $(wc -l <"$work/failures.txt") failures over $compared variants (seed $seed, $timing)" >&2
  exit 1
fi
echo "fuzz-reports.sh: in a ${budget_s} s budget, $compared variants (seed $seed) through compare" \
  "and summary (ASan+UBSan) and $plotted through the plots: no crash, sanitizer report, traceback" \
  "or hang ($timing)"
