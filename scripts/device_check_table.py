#!/usr/bin/env python3
"""The short table scripts/device-check prints last: per family, cases run, failed and skipped,
and the headline copy figures of h2d/memory at 64 MiB. Reads one h2dbench report."""
import json
import sys
from collections import defaultdict


def family_of(name):
    parts = name.split("/")
    head = [p for p in parts if "=" not in p]
    return "/".join(head[: len(head)]) if head else name


def main(path):
    with open(path) as f:
        report = json.load(f)
    meta = report.get("h2dbench", {})
    gpus = meta.get("gpus", [])
    print(f"machine: {meta.get('host', {}).get('hostname', '?')}, "
          f"GPU: {gpus[0]['name'] if gpus else 'none'}, "
          f"driver {meta.get('cuda', {}).get('driver_version', '?')}, "
          f"CUDA runtime {meta.get('cuda', {}).get('runtime_version', '?')}")
    counts = defaultdict(lambda: [0, 0])
    headline = {}
    for run in report.get("benchmarks", []):
        if run.get("run_type") == "aggregate":
            continue
        name = run.get("run_name", run.get("name", ""))
        family = "/".join(p for p in name.split("/") if "=" not in p)
        counts[family][0] += 1
        if run.get("error_occurred"):
            counts[family][1] += 1
        if family == "h2d/memory" and "bytes=64MiB" in name and "GB_per_s" in run:
            key = name.replace("h2d/memory/", "").replace("/bytes=64MiB", "")
            headline[key] = run["GB_per_s"]
    print(f"{'family':<24}{'cases':>7}{'errors':>8}")
    for family in sorted(counts):
        print(f"{family:<24}{counts[family][0]:>7}{counts[family][1]:>8}")
    for problem in ("failed_cases", "skipped_cases"):
        for item in meta.get(problem, []):
            print(f"{problem[:-6]}: {item['name']}: {item['reason']}")
    if headline:
        print(f"{'h2d/memory at 64MiB':<44}{'GB/s':>8}")
        for key in sorted(headline):
            print(f"{key:<44}{headline[key]:>8.2f}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: device_check_table.py REPORT.json")
    main(sys.argv[1])
