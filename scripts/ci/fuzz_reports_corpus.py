#!/usr/bin/env python3
"""Writes a seeded mutation corpus of one real report for scripts/ci/fuzz-reports.sh.

    fuzz_reports_corpus.py SEED_REPORT.json OUT_DIR COUNT [SEED]

Each variant is the seed report with one or a few mutations of the kinds that broke compare,
summary and the plots (issue 17): truncations, type swaps, NaN/1e400 and other extreme numbers,
huge and deep values, duplicate keys, unicode, long names, 0 and negative parameters, many
entries, many GPUs. Variants are deterministic for a given seed.
"""

import copy
import json
import os
import random
import sys

EXTREMES = [0, -1, 1e-300, 1e300, 1.7e308, -1.7e308, 5e-324, 2 ** 63, -2 ** 63, 0.0, 1e308]
HEAVY = {5, 6, 11}  # the mutations that write megabytes
ODD_VALUES = [None, True, False, "", "x", "∞ ünïcödé 🚀", [], {}, [1, 2], {"a": 1}, "1e400", 3.5]


def paths(value, prefix=()):
    """Every (container, key) in the document, iteratively (the seed is shallow anyway)."""
    found, stack = [], [(value, prefix)]
    while stack:
        node, where = stack.pop()
        items = node.items() if isinstance(node, dict) else enumerate(node) \
            if isinstance(node, list) else []
        for key, child in items:
            found.append((node, key))
            stack.append((child, where + (key,)))
    return found


def deep(depth):
    return "[" * depth + "]" * depth


def mutate_tree(doc, rng):
    """Structural mutations on the parsed document; returns JSON text."""
    spots = paths(doc)
    kind = rng.randrange(12)
    if kind in HEAVY and rng.random() > 0.15:  # 100k entries: a few variants, not hundreds
        kind = rng.choice([k for k in range(12) if k not in HEAVY])
    node, key = rng.choice(spots) if spots else (doc, None)
    benchmarks = doc.get("benchmarks") if isinstance(doc.get("benchmarks"), list) else []
    if kind == 0 and key is not None:
        node[key] = rng.choice(ODD_VALUES)
    elif kind == 1 and key is not None:
        node[key] = rng.choice(EXTREMES)
    elif kind == 2 and key is not None and isinstance(node, dict):
        del node[key]
    elif kind == 3 and benchmarks:
        entry = rng.choice(benchmarks)
        if isinstance(entry, dict):
            entry["name"] = entry["run_name"] = rng.choice(
                ["n" * rng.choice([1025, 30000, 1 << 20]), "", "/", "a/b=c=d//=", "é/ü=ö",
                 "h2d/memory/gpus=0/bytes=0", "pipeline/train/gpus=-1", "x/gpus=nan/bytes=1e400",
                 "multi/scatter/gpus=0/bytes=1MiB", "host/memcpy/threads=0/bytes=0B"])
    elif kind == 4 and benchmarks:
        entry = rng.choice(benchmarks)
        if isinstance(entry, dict):
            entry["time_unit"] = rng.choice([["us"], "fortnights", 7, None, {"u": 1}])
    elif kind == 5 and benchmarks:
        template = rng.choice(benchmarks)
        count = rng.choice([1000, 20000, 100000])
        for i in range(count):
            clone = copy.copy(template) if isinstance(template, dict) else {}
            clone["name"] = clone["run_name"] = f"fuzz{i % rng.choice([1, 7, count])}/k={i}"
            benchmarks.append(clone)
    elif kind == 6:
        gpus = [{"name": f"GPU {i}", "compute_capability": "9.0"} for i in range(100000)]
        if isinstance(doc.get("h2dbench"), dict):
            doc["h2dbench"]["gpus"] = gpus
    elif kind == 7 and benchmarks:
        entry = rng.choice(benchmarks)
        if isinstance(entry, dict):
            for metric in ("GB_per_s", "real_time", "cv_pct", "link_pct", "samples_per_s",
                           "bytes", "gpus", "threads", "streams", "batch"):
                if rng.random() < 0.5:
                    entry[metric] = rng.choice(EXTREMES)
    elif kind == 8 and benchmarks:
        for entry in benchmarks:  # degenerate: every value the same
            if isinstance(entry, dict):
                for metric in list(entry):
                    if isinstance(entry[metric], (int, float)) and not isinstance(entry[metric],
                                                                                bool):
                        entry[metric] = rng.choice([0, 1, 1e308])
    elif kind == 9:
        doc.pop("h2dbench", None)  # a plain Google Benchmark report
    elif kind == 10 and benchmarks:
        entry = rng.choice(benchmarks)
        if isinstance(entry, dict):
            entry["error_occurred"] = rng.choice([True, 1, "yes", None])
            entry["error_message"] = rng.choice(["boom", 7, ["x"], "m" * 100000])
    elif kind == 11 and isinstance(doc.get("h2dbench"), dict):
        doc["h2dbench"]["skipped_families"] = [
            {"family": f"f{i}", "reason": rng.choice(["r", 3, None])} for i in range(50000)]
    return json.dumps(doc, ensure_ascii=rng.random() < 0.5)


def mutate_text(text, rng):
    """Byte-level mutations on the report's text."""
    kind = rng.randrange(8)
    at = rng.randrange(len(text))
    if kind == 0:
        return text[:at]  # truncated
    if kind == 1:
        return text[:at] + rng.choice(["NaN", "Infinity", "-Infinity", "1e400", "-1e400",
                                       "1" * 400, "0x10", "01", "1.", ".5", "+1"]) + text[at:]
    if kind == 2:
        spot = text.find(":", at)
        return text if spot < 0 else text[:spot + 1] + deep(rng.choice([63, 64, 65, 1000, 60000])) \
            + "," + text[spot + 1:]
    if kind == 3:  # a duplicate key
        return text.replace('"benchmarks":', '"benchmarks": [], "benchmarks":', 1) \
            if rng.random() < 0.5 else text.replace('"h2dbench":', '"h2dbench": 1, "h2dbench":', 1)
    if kind == 4:
        return text[:at] + rng.choice(["\\ud800", "\u0000", "\\u0000", "é", "\udcff", "\ufeff",
                                       "\\", '"']) + text[at:]
    if kind == 5:
        return text[:at] + text[at + rng.randrange(1, 64):]  # bytes lost
    if kind == 6:
        return text.replace('"schema": 1', '"schema": ' + deep(60000), 1)
    return text[:at] + chr(rng.randrange(32, 127)) + text[at + 1:]


def family_of(entry):
    name = entry.get("name") if isinstance(entry, dict) else None
    return "/".join(name.split("/")[:2]) if isinstance(name, str) else ""


def family_subset(seed, rng):
    """The seed cut to one or two of its families (one in twenty variants keeps them all): such a
    variant draws one or two figures instead of all of them, which is what lets every variant
    through the plots within CI's budget, and its mutations land on fewer entries."""
    doc = copy.deepcopy(seed)
    families = sorted({family_of(entry) for entry in doc.get("benchmarks", [])})
    if rng.random() < 0.05 or len(families) < 2:
        return doc
    keep = set(rng.sample(families, rng.choice([1, 1, 2])))
    doc["benchmarks"] = [entry for entry in doc["benchmarks"] if family_of(entry) in keep]
    return doc


def main():
    seed_path, out_dir, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    rng = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 17)
    with open(seed_path, encoding="utf-8") as handle:
        seed = json.load(handle)
    os.makedirs(out_dir, exist_ok=True)
    for index in range(count):
        doc = family_subset(seed, rng)
        if rng.random() < 0.6:
            text = mutate_tree(doc, rng)
            if rng.random() < 0.3:
                text = mutate_tree(json.loads(text), rng)
        else:
            text = mutate_text(json.dumps(doc, indent=2, ensure_ascii=False), rng)  # as h2dbench writes
        with open(os.path.join(out_dir, f"v{index:05d}.json"), "w", encoding="utf-8",
                  errors="surrogatepass") as handle:
            handle.write(text)


if __name__ == "__main__":
    main()
