#!/usr/bin/env bash
# results/ holds real reports from real machines only: refuse any report there that the simulated
# GPU wrote (its context says "backend": "simulated", or a GPU is named "... (h2dbench sim)").
set -euo pipefail
cd "$(dirname "$0")/../.."
python3 - <<'PY'
import json, pathlib, sys
bad = []
for path in sorted(pathlib.Path("results").rglob("*.json")):
    try:
        report = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        bad.append(f"{path}: not a readable JSON report ({error})")
        continue
    context = report.get("h2dbench") if isinstance(report, dict) else None
    if not isinstance(context, dict):
        continue
    gpus = context.get("gpus") if isinstance(context.get("gpus"), list) else []
    names = [g.get("name", "") for g in gpus if isinstance(g, dict)]
    if context.get("backend") == "simulated" or any("(h2dbench sim)" in str(n) for n in names):
        bad.append(f"{path}: written by the simulated GPU; simulated reports never go into results/")
if bad:
    print("\n".join(bad), file=sys.stderr)
    sys.exit(1)
print("results/: no simulated report")
PY
