#!/usr/bin/env python3
"""Draw one case of an h2dbench timeline (`h2dbench run --trace FILE.json`) as a picture.

    python3 plots/plot_timeline.py TRACE.json --case NAME [-o OUT.png] [--from MS] [--to MS]

A row per thread (and per GPU stream, where CUPTI recorded copies and kernels), a bar per range
coloured by its NVTX category as Nsight Systems shows them (docs/timelines.md), each bar labelled
with its name where it is wide enough. The window is the case's own range, or --from/--to
milliseconds into it. For a quick look where Perfetto or Nsight Systems is not at hand, and for
pictures in docs; Perfetto (ui.perfetto.dev) opens the same file interactively.
"""

import argparse
import json
import sys

EXIT_USAGE = 2
# The NVTX categories' colours (harness/trace/nvtx.cpp), and CUPTI's records.
COLOURS = {
    "case": "#5b6770", "setup": "#a0a0a0", "collate": "#f28e2b", "pin": "#e377c2",
    "stage": "#9467bd", "copy": "#1f77b4", "compute": "#2ca02c", "verify": "#dbdb8d",
    "cuda_api": "#c7c7c7", "memcpy": "#17becf", "kernel": "#98df8a",
}
MAX_ROWS = 40
LABEL_MIN_FRACTION = 0.06  # a bar this share of the window wide gets its name written in it


def fail(message):
    print(f"plot_timeline: {message}", file=sys.stderr)
    sys.exit(EXIT_USAGE)


def load_events(path):
    try:
        with open(path, encoding="utf-8") as handle:
            document = json.load(handle)
    except (OSError, ValueError) as error:
        fail(f"{path}: {error}")
    events = document.get("traceEvents") if isinstance(document, dict) else document
    if not isinstance(events, list):
        fail(f"{path}: no traceEvents list: not a Chrome trace")
    return [e for e in events if isinstance(e, dict)]


def thread_names(events):
    names = {}
    for event in events:
        if event.get("ph") == "M" and event.get("name") in ("thread_name", "process_name"):
            key = (event.get("pid"), event.get("tid")) if event["name"] == "thread_name" else \
                (event.get("pid"), None)
            names[key] = str(event.get("args", {}).get("name", ""))
    return names


def case_window(ranges, case):
    for event in ranges:
        if event.get("cat") == "case" and event.get("name") == case:
            return float(event["ts"]), float(event["ts"]) + float(event["dur"])
    cases = sorted({e.get("name") for e in ranges if e.get("cat") == "case"})
    fail(f"--case '{case}' is not in the trace; its cases: " + ", ".join(cases[:20]) +
         (" ..." if len(cases) > 20 else ""))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("trace", metavar="TRACE.json")
    parser.add_argument("--case", required=True, help="the case's name, as in the report")
    parser.add_argument("-o", "--out", default="timeline.png", help="the picture (PNG or SVG)")
    parser.add_argument("--from", dest="start_ms", type=float, default=0.0,
                        help="milliseconds into the case where the picture starts")
    parser.add_argument("--to", dest="end_ms", type=float, help="milliseconds into the case")
    args = parser.parse_args()
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.patches import Patch
    except ImportError:
        fail("needs matplotlib (Debian: apt-get install python3-matplotlib)")

    events = load_events(args.trace)
    ranges = [e for e in events if e.get("ph") == "X" and isinstance(e.get("ts"), (int, float))
              and isinstance(e.get("dur"), (int, float))]
    begin, end = case_window(ranges, args.case)
    origin = begin
    begin += args.start_ms * 1000.0
    if args.end_ms is not None:
        end = min(end, origin + args.end_ms * 1000.0)
    if end <= begin:
        fail(f"--from {args.start_ms} ms is past the window's end")
    shown = [e for e in ranges if e["ts"] < end and e["ts"] + e["dur"] > begin]
    names = thread_names(events)
    processes = {e.get("pid") for e in shown}

    # A row per thread name: each epoch of a loop starts its own worker threads, and one row for
    # "worker 0" across epochs reads as the timeline tools show it.
    def row_of(event):
        pid, tid = event.get("pid"), event.get("tid")
        name = names.get((pid, tid)) or f"thread {tid}"
        process = names.get((pid, None))
        return f"{process}: {name}" if len(processes) > 1 and process else name

    rows = []
    for event in sorted(shown, key=lambda e: e["ts"]):
        if row_of(event) not in rows:
            rows.append(row_of(event))
    if len(rows) > MAX_ROWS:
        fail(f"{len(rows)} threads and streams in the window, more than {MAX_ROWS}: "
             "narrow it with --from/--to")
    width_us = end - begin

    fig, ax = plt.subplots(figsize=(12, 0.45 * len(rows) + 1.6))
    for row, key in enumerate(rows):
        # Nested ranges of a thread drawn thinner, inside their parents, as timelines show depth.
        open_ends = []
        for event in sorted((e for e in shown if row_of(e) == key),
                            key=lambda e: (e["ts"], -e["dur"])):
            while open_ends and open_ends[-1] <= event["ts"]:
                open_ends.pop()
            depth = len(open_ends)
            open_ends.append(event["ts"] + event["dur"])
            left = max(event["ts"], begin)
            right = min(event["ts"] + event["dur"], end)
            height = max(0.8 - 0.18 * depth, 0.2)
            colour = COLOURS.get(event.get("cat"), "#bcbd22")
            ax.barh(row, (right - left) / 1000.0, left=(left - origin) / 1000.0, height=height,
                    color=colour, edgecolor="white", linewidth=0.3)
            if (right - left) / width_us >= LABEL_MIN_FRACTION and depth > 0:
                ax.text((left + right - 2 * origin) / 2000.0, row, str(event.get("name", ""))[:40],
                        ha="center", va="center", fontsize=6, clip_on=True)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels(rows, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim((begin - origin) / 1000.0, (end - origin) / 1000.0)
    ax.set_xlabel("milliseconds into the case")
    ax.set_title(args.case, fontsize=9)
    present = sorted({e.get("cat") for e in shown if e.get("cat") in COLOURS})
    ax.legend(handles=[Patch(color=COLOURS[c], label=c) for c in present], fontsize=7,
              loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(args.out, dpi=100)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
