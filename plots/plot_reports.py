#!/usr/bin/env python3
"""Turn h2dbench reports into figures (PNG and SVG).

    python3 plots/plot_reports.py REPORT.json [MORE.json ...] -o DIR

One report gives one machine's figures; several reports are overlaid (colour = series,
line style = machine), so rigs can be compared at a glance. A figure whose families are absent
from every report is skipped with a note; if no figure can be drawn it is an error (exit 2).

Reports are h2dbench JSON (Google Benchmark format plus an "h2dbench" context). Case names read
family/key=value/...; numeric parameters are also top-level counters (bytes, threads, ...).
"""

import argparse
import importlib.util
import os
import sys
import warnings
from collections import OrderedDict

from drawing import Skip
from figures import FIGURES
from report_reading import ReportError, load_report

EXIT_USAGE = 2
EXIT_INTERNAL = 1
DPI = 100  # sharp on a screen, small enough to commit (docs/img)
TITLE_INCHES = 0.4


def build_figures(reports):
    """name -> matplotlib Figure for every figure that can be drawn; notes for the others."""
    import matplotlib.pyplot as plt
    figures, notes = OrderedDict(), []
    for name, draw in FIGURES.items():
        before = set(plt.get_fignums())
        try:
            with warnings.catch_warnings():
                # matplotlib's warnings about degenerate axes: the note below says it once.
                warnings.simplefilter("ignore")
                fig = draw(reports)
                # The two-line title keeps its inches at the top, whatever the figure's height.
                fig.tight_layout(rect=(0, 0, 1, 1 - TITLE_INCHES / fig.get_figheight()))
        except Skip as why:
            notes.append(f"skipped {name}: {why}")
        except _layout_errors() as error:
            notes.append(f"skipped {name}: {_layout_failure(error)}")
        else:
            figures[name] = fig
            continue
        for number in set(plt.get_fignums()) - before:  # what the failed figure left open
            plt.close(number)
    return figures, notes


# Values matplotlib cannot lay out (a hand-edited 1e308 GB/s; degenerate axes, where numpy finds
# a singular matrix) raise from deep inside it: they become a note naming the figure, not a
# traceback. numpy's LinAlgError is no ValueError (it derives from Exception); ArithmeticError
# covers overflow and division by zero. numpy comes with matplotlib, imported once main has
# checked that matplotlib is there.
def _layout_errors():
    from numpy.linalg import LinAlgError
    return (ValueError, IndexError, ArithmeticError, TypeError, KeyError, LinAlgError)


def _layout_failure(error):
    return (f"matplotlib could not draw it ({type(error).__name__}: {str(error)[:200]}); are the "
            "values in "
            "the reports sane?")


def _save(fig, name, out_dir, formats):
    """Writes one figure; returns its paths. Raises Skip when matplotlib cannot draw it."""
    paths = []
    for fmt in formats:
        path = os.path.join(out_dir, f"{name}.{fmt}")
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                fig.savefig(path, dpi=DPI, bbox_inches="tight")
        except OSError as error:
            raise ReportError(f"-o '{out_dir}': cannot write {path}: {error.strerror}") from None
        except _layout_errors() as error:
            for written in paths + [path]:
                if os.path.exists(written):
                    os.remove(written)
            raise Skip(_layout_failure(error)) from None
        paths.append(path)
    return paths


def render(report_paths, out_dir, formats=("png", "svg")):
    """Writes the figures; returns (written paths, notes). Raises ReportError on bad input."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    reports = [load_report(path) for path in report_paths]
    figures, notes = build_figures(reports)
    if not figures:
        present = sorted({f for r in reports for f in r.families()}) or ["none"]
        raise ReportError("none of the figures can be drawn from these reports (families "
                          f"present: {', '.join(present)}); " + "; ".join(notes))
    if os.path.exists(out_dir) and not os.path.isdir(out_dir):
        raise ReportError(f"-o '{out_dir}' is a file; give a folder for the figures")
    try:
        os.makedirs(out_dir, exist_ok=True)
    except OSError as error:
        raise ReportError(f"-o '{out_dir}': cannot create the folder: {error.strerror}") from None
    written = []
    for name, fig in figures.items():
        try:
            written += _save(fig, name, out_dir, formats)
        except Skip as why:
            notes.append(f"skipped {name}: {why}")
        finally:
            plt.close(fig)
    if not written:
        raise ReportError("none of the figures could be drawn: " + "; ".join(notes))
    return written, notes


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Turn h2dbench reports into PNG and SVG figures (several reports overlay).")
    parser.add_argument("reports", nargs="+", metavar="REPORT.json")
    parser.add_argument("-o", "--out", required=True, metavar="DIR", help="output folder")
    args = parser.parse_args(argv)
    if importlib.util.find_spec("matplotlib") is None:
        print(f"plot_reports: error: matplotlib is not installed for {sys.executable} "
              "(Debian: apt-get install python3-matplotlib, then use /usr/bin/python3)",
              file=sys.stderr)
        return EXIT_USAGE
    try:
        written, notes = render(args.reports, args.out)
    except ReportError as error:
        print(f"plot_reports: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except Exception as error:  # noqa: BLE001 - a bug of ours: one line, never a traceback
        print(f"plot_reports: internal error: {type(error).__name__}: {error} (please report it "
              "with the reports)", file=sys.stderr)
        return EXIT_INTERNAL
    for note in notes:
        print(f"note: {note}")
    for path in written:
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
