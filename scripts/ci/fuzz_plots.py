#!/usr/bin/env python3
"""Every variant of the report fuzz through plots/plot_reports.py, in this one process.

    fuzz_plots.py CORPUS_DIR OUT_DIR TIMEOUT_S DEADLINE [SHARD COUNT]

A plot run in its own process costs a second of imports before it reads a byte; here
matplotlib is imported once and plot_reports.main() runs per variant, just as the command line
calls it. Prints "FAIL variant plots: reason" for a traceback (an exception main lets through),
an exit code other than 0 (drawn) or 2 (a clear refusal), a "Traceback" in its output, or no
answer within TIMEOUT_S; nothing for a clean variant. The variants go in sorted order until
DEADLINE (seconds since the epoch) passes, so the step costs a fixed time on any machine; the last
line says how many were drawn ("plotted N"). SHARD and COUNT take every COUNT-th variant from the
SHARD-th, so two of these can share the corpus.
"""

import contextlib
import io
import os
import shutil
import signal
import sys
import time
import traceback

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "plots"))
os.environ.setdefault("MPLBACKEND", "Agg")
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import plot_reports  # noqa: E402


class Hang(BaseException):
    """No answer within the timeout; a BaseException so main's `except Exception` lets it by."""


def _on_alarm(_signum, _frame):
    raise Hang()


def fuzz_one(variant, out_dir, timeout_s):
    """The reason the variant failed, or None."""
    output = io.StringIO()
    signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, timeout_s)
    try:
        with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
            status = plot_reports.main([variant, "-o", out_dir])
    except Hang:
        return f"no answer within {timeout_s} s"
    except BaseException:  # noqa: BLE001 - what reached the user as a traceback
        return "traceback: " + " | ".join(traceback.format_exc().strip().splitlines()[-3:])
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        plt.close("all")
        shutil.rmtree(out_dir, ignore_errors=True)
    text = output.getvalue()
    if status not in (0, 2):
        return f"exit {status}: {text[-300:]!r}"
    if "Traceback (most recent" in text:
        return "a traceback in the output: " + text[text.index("Traceback"):][:300]
    return None


def main():
    corpus, out_dir, timeout_s = sys.argv[1], sys.argv[2], float(sys.argv[3])
    deadline = float(sys.argv[4])
    shard, count = (int(sys.argv[5]), int(sys.argv[6])) if len(sys.argv) > 6 else (0, 1)
    variants = sorted(name for name in os.listdir(corpus) if name.endswith(".json"))
    plotted = 0
    for name in variants[shard::count]:
        if time.time() >= deadline:
            break
        reason = fuzz_one(os.path.join(corpus, name), os.path.join(out_dir, name[:-5]), timeout_s)
        if reason:
            print(f"FAIL {name[:-5]} plots: {reason}", flush=True)
        plotted += 1
    print(f"plotted {plotted}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
