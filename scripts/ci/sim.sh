#!/usr/bin/env bash
# The simulated GPU (sim/): builds the `sim` preset (the same h2dbench and h2d_tests linked against
# the simulator instead of the CUDA runtime), runs the simulator's own tests and the GPU tests
# listed below on it, then the h2d/memory family end to end, whose report must be marked
# simulated and whose pinned async H2D must reproduce the modelled link rate.
set -euo pipefail
source "$(dirname "$0")/../common.sh"
cd "$h2d_root"
h2d_find_nvcc  # the toolkit's headers: the sim implements CUDA's own declarations
echo "sim.sh: building the sim preset"
h2d_build sim --target h2dbench h2d_tests >/dev/null

# The simulator's own tests and every GPU test (suites named *Gpu*; the RESOURCE_LOCK naming rule
# makes that all of them).
filter='Sim*:Device*:Cupti*:*Gpu*'
echo "sim.sh: h2d_tests on the simulated GPU ($filter)"
build/sim/h2d_tests --gtest_filter="$filter" --gtest_brief=1
echo "sim.sh: the multi-GPU tests on 4 simulated GPUs behind 2 shared uplinks"
H2D_SIM_DEVICES=4 H2D_SIM_TOPOLOGY=tests/fixtures/four_gpu_two_uplinks.xml \
  build/sim/h2d_tests --gtest_filter='MultiGpu*' --gtest_brief=1

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "sim.sh: h2d/memory on the simulated GPU (modelled H2D 4 GB/s pinned)"
H2D_SIM_H2D_GBPS=4 build/sim/h2dbench run --preset quick --filter 'h2d/memory' \
  --out "$out/memory.json" >"$out/memory.log" 2>&1 || {
  tail -n 30 "$out/memory.log" >&2; echo "sim.sh: h2d/memory failed on the simulated GPU" >&2; exit 1; }
grep -q "SIMULATED GPU" "$out/memory.log" || {
  echo "sim.sh: the run did not say it was simulated" >&2; exit 1; }
python3 - "$out/memory.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
context = report["h2dbench"]
assert context.get("backend") == "simulated", "the report is not marked simulated"
assert all("h2dbench sim" in g["name"] for g in context["gpus"]), context["gpus"]
rates = {b["name"]: b["GB_per_s"] for b in report["benchmarks"] if "GB_per_s" in b}
pinned = rates["h2d/memory/dir=h2d/kind=pinned/mode=async/bytes=64MiB"]
assert abs(pinned - 4.0) <= 0.4, f"pinned async H2D {pinned:.3f} GB/s, modelled 4 GB/s"
pageable = rates["h2d/memory/dir=h2d/kind=pageable/mode=async/bytes=64MiB"]
assert pageable < pinned, f"pageable {pageable:.3f} GB/s is not below pinned {pinned:.3f}"
print(f"sim.sh: pinned async H2D {pinned:.3f} GB/s (model 4), pageable {pageable:.3f} GB/s")
PY
echo "sim.sh: the simulated GPU ran the tests above and h2d/memory, marked simulated"
