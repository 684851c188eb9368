#!/usr/bin/env bash
# The simulated GPU (sim/, docs/sim.md): builds the `sim-coverage` preset (the `sim` build, the
# same h2dbench and h2d_tests linked against the simulator instead of the CUDA runtime, with gcov
# instrumentation), then on the simulated GPU:
#   1. every test with ctest, none of the GPU or simulator tests skipped, on 2 simulated GPUs
#      (the test presets' H2D_SIM_DEVICES) so that the peer-access tests run too;
#   2. the multi-GPU tests again on 4 simulated GPUs behind 2 shared uplinks;
#   3. `run --preset quick` of the GPU families (the host ones ran in scripts/test) on 1 simulated
#      GPU and of the multi-GPU families on 4: every one runs, the report says simulated, no case
#      fails;
#   4. line coverage of the GPU code by all of the above (gcovr), per folder.
set -euo pipefail
source "$(dirname "$0")/../common.sh"
cd "$h2d_root"
h2d_prepare
h2d_install_packages gcovr
started=$SECONDS
preset=sim-coverage
build=build/$preset
echo "sim.sh: building the $preset preset"
h2d_build "$preset" >/dev/null
find "$build" -name '*.gcda' -delete  # coverage of this run only

echo "sim.sh: ctest on the simulated GPU ($(nproc) cores)"
ctest --preset "$preset" -j "$(nproc)"
log=$build/Testing/Temporary/LastTest.log
# A GPU or simulator test that skips on the sim is one CI never runs: only those needing what the
# sim has no stand-in for (nvJPEG, CUPTI details) may, and they say so.
skipped=$(grep -B3 -h '\[  SKIPPED \]' "$log" | grep -oE '^\[ RUN      \] [A-Za-z0-9_]*(Gpu|Sim|Device|Cupti)[A-Za-z0-9_]*\.[A-Za-z0-9_/]+' |
  sed 's/^\[ RUN      \] //' | sort -u || true)
allowed_reason='the simulated GPU has no (nvJPEG|CUPTI)'
unexpected=""
for test in $skipped; do
  if ! grep -A3 -h "^\[ RUN      \] $test\$" "$log" | grep -qE "$allowed_reason"; then
    unexpected+=" $test"
  fi
done
if [ -n "$unexpected" ]; then
  echo "sim.sh: GPU tests skipped on the simulated GPU:$unexpected" >&2
  exit 1
fi

echo "sim.sh: the multi-GPU tests on 4 simulated GPUs behind 2 shared uplinks"
H2D_SIM_DEVICES=4 H2D_SIM_TOPOLOGY=tests/fixtures/four_gpu_two_uplinks.xml \
  "$build/h2d_tests" --gtest_filter='MultiGpu*:MultiFamilies*' --gtest_brief=1

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
quick_run() {  # GPUS FILTER, then the families that must have run
  local gpus=$1 filter=$2
  shift 2
  echo "sim.sh: run --preset quick on $gpus simulated GPU(s)"
  local status=0
  H2D_SIM_DEVICES=$gpus H2D_SIM_TOPOLOGY=tests/fixtures/four_gpu_two_uplinks.xml \
    HWLOC_XMLFILE=tests/fixtures/four_gpu_two_uplinks.xml \
    "$build/h2dbench" run --preset quick --devices all --filter "$filter" \
    --out "$out/quick$gpus.json" \
    >"$out/quick$gpus.log" 2>&1 || status=$?
  if [ "$status" -ne 0 ]; then
    tail -n 30 "$out/quick$gpus.log" >&2
    echo "sim.sh: run --preset quick failed on $gpus simulated GPU(s) (exit $status)" >&2
    exit 1
  fi
  grep -q "SIMULATED GPU" "$out/quick$gpus.log" ||
    { echo "sim.sh: the run did not say on the terminal that it was simulated" >&2; exit 1; }
  python3 - "$out/quick$gpus.json" "$@" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
context = report["h2dbench"]
assert context.get("backend") == "simulated", "the report is not marked simulated"
assert all("h2dbench sim" in g["name"] for g in context["gpus"]), context["gpus"]
entries = report["benchmarks"]
failed = [e["name"] for e in entries if e.get("error_occurred") and not e.get("skipped")]
assert not failed, f"cases failed on the simulated GPU: {failed[:5]}"
ran = {e["name"].split("/")[0] + "/" + e["name"].split("/")[1]
       for e in entries if not e.get("error_occurred")}
missing = [family for family in sys.argv[2:] if family not in ran]
assert not missing, f"GPU families that did not run: {missing}; ran: {sorted(ran)}"
print(f"sim.sh: {len(entries)} entries, families {', '.join(sorted(ran))}")
PY
}
gpu_families=(h2d/memory h2d/streams h2d/staging h2d/pin_cost h2d/zero_copy h2d/batch
  h2d/preprocess pipeline/train pipeline/predict)
# Budget: the sim runs kernels thread by thread on the CPU, so a batch of 16 samples, checksummed
# member by member, costs seconds; h2d/batch runs at batch=1 here (batch=16 runs in
# SimMeasurementGpu). On 4 GPUs only the multi-GPU families: the others run the same code per GPU.
quick_run 1 '^h2d/batch/.*/batch=1$|^(h2d/(memory|streams|staging|pin_cost|zero_copy|preprocess)|pipeline)/' \
  "${gpu_families[@]}"
quick_run 4 '^multi/' multi/h2d_concurrent multi/scatter

echo "sim.sh: line coverage of the GPU code on the simulated GPU (gcovr)"
coverage_folders=(harness/cuda harness/strategy harness/batch harness/pipeline/gpu
  harness/suite benchmarks/families kernels)
filters=()
for folder in "${coverage_folders[@]}"; do
  filters+=(--filter "$folder/")
done
gcovr --root . --object-directory "$build" "${filters[@]}" --txt "$out/coverage.txt" \
  --json-summary "$out/coverage.json" --gcov-ignore-parse-errors=negative_hits.warn >/dev/null
python3 - "$out/coverage.json" "${coverage_folders[@]}" <<'PY'
import json, sys
summary = json.load(open(sys.argv[1]))
folders = {folder: [0, 0] for folder in sys.argv[2:]}
for entry in summary["files"]:
    for folder in folders:
        if entry["filename"].startswith(folder + "/"):
            folders[folder][0] += entry["line_covered"]
            folders[folder][1] += entry["line_total"]
for folder, (covered, total) in folders.items():
    print(f"sim.sh: coverage {folder:24} {100 * covered / max(total, 1):5.1f}% of {total} lines")
covered = sum(c for c, _ in folders.values())
total = sum(t for _, t in folders.values())
print(f"sim.sh: coverage of the GPU code {100 * covered / max(total, 1):.1f}% of {total} lines (aim: 85%)")
PY
echo "sim.sh: done in $((SECONDS - started)) s"
