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
import json
import math
import os
import re
import stat
import statistics
import sys
from collections import OrderedDict

EXIT_USAGE = 2
REPORT_SCHEMA = 1  # harness/report/report_file.hpp kReportSchema
MAX_REPORT_CHARS = 1 << 30  # far beyond any real report (and /dev/zero never ends)


class ReportError(Exception):
    """Bad input: a missing, empty, truncated or foreign report, or nothing to draw."""


# --- Reading reports ---------------------------------------------------------------------------

_SIZE = re.compile(r"^(\d+(?:\.\d+)?)(B|KiB|MiB|GiB|TiB)?$")
_UNITS = {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40, None: 1}
# GB's bookkeeping numbers are not measurements.
_BOOKKEEPING = {"family_index", "per_family_instance_index", "repetition_index", "repetitions",
                "iterations"}
# family prefix -> primary metric; the same table as harness/report/primary_metric.cpp.
_PRIMARY = [("pipeline/", "samples_per_s"), ("h2d/", "GB_per_s"), ("d2h/", "GB_per_s"),
            ("host/", "GB_per_s"), ("batch/", "GB_per_s")]
_UNIT_OF = {"GB_per_s": "GB/s (decimal)", "samples_per_s": "samples/s", "real_time": "µs"}


def parse_size(text):
    """'64MiB' -> 67108864; None when the text is not a size."""
    match = _SIZE.match(text or "")
    if not match:
        return None
    return float(match.group(1)) * _UNITS[match.group(2)]


def size_label(value):
    for unit in ("TiB", "GiB", "MiB", "KiB"):
        scale = _UNITS[unit]
        if value >= scale:
            number = value / scale
            return f"{number:.0f}{unit}" if number == int(number) else f"{number:.1f}{unit}"
    return f"{value:.0f}B"


def parse_name(name):
    """'h2d/memory/dir=h2d/kind=pinned' -> ('h2d/memory', {'dir': 'h2d', 'kind': 'pinned'})."""
    family, params = [], OrderedDict()
    for segment in name.split("/"):
        if "=" in segment:
            key, value = segment.split("=", 1)
            params[key] = value
        elif not params:
            family.append(segment)
    return "/".join(family), params


class Case:
    def __init__(self, name):
        self.name = name
        self.family, self.params = parse_name(name)
        self.values = {}  # metric -> one value per repetition
        self.error = None

    def median(self, metric):
        values = self.values.get(metric)
        return statistics.median(values) if values else None

    def number(self, key):
        """A numeric parameter: its counter, else the value in the name (sizes understood)."""
        counter = self.median(key)
        if counter is not None:
            return counter
        text = self.params.get(key)
        if text is None:
            return None
        try:
            return float(text)
        except ValueError:
            return parse_size(text)


def _time_scale(unit):
    return {"ns": 1e-3, "ms": 1e3, "s": 1e6}.get(unit, 1.0)


def load_report(path):
    """Reads and checks one report; raises ReportError naming the file and the problem."""
    if not os.path.exists(path):
        raise ReportError(f"report '{path}': no such file")
    if os.path.isdir(path):
        raise ReportError(f"report '{path}': is a folder, not a report file")
    mode = os.stat(path).st_mode
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) or stat.S_ISSOCK(mode):
        raise ReportError(f"report '{path}': is a device or socket, not a report file")
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            text = handle.read(MAX_REPORT_CHARS + 1)
    except OSError as error:
        raise ReportError(f"report '{path}': cannot read: {error.strerror}") from None
    if len(text) > MAX_REPORT_CHARS:
        raise ReportError(f"report '{path}': larger than 1 GiB, not an h2dbench report")
    if not text.strip():
        raise ReportError(f"report '{path}': the file is empty")
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as error:
        raise ReportError(f"report '{path}': not valid JSON, perhaps truncated ({error})") from None
    except RecursionError:
        raise ReportError(f"report '{path}': JSON nested too deeply to be a report") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("benchmarks"), list) \
            or "context" not in doc:
        raise ReportError(
            f"report '{path}': not a Google Benchmark JSON report (no 'context' and 'benchmarks')")
    if not isinstance(doc.get("h2dbench"), dict):
        raise ReportError(f"report '{path}': a Google Benchmark report, but not from h2dbench "
                          "(no 'h2dbench' context)")
    schema = doc["h2dbench"].get("schema")
    if schema != REPORT_SCHEMA or isinstance(schema, bool):
        raise ReportError(f"report '{path}': h2dbench schema {json.dumps(schema)}; this script "
                          f"reads schema {REPORT_SCHEMA}")
    return Report(path, doc)


def _mapping(value):
    """A report section that should be an object: {} when it is missing or hand-edited into
    something else, so a damaged section costs a label, not the figures."""
    return value if isinstance(value, dict) else {}


def _sequence(value):
    return value if isinstance(value, list) else []


class Report:
    def __init__(self, path, doc):
        self.path = path
        self.doc = doc
        self.context = doc["h2dbench"]
        self.cases = self._collect()
        self.label = self.machine()

    def _collect(self):
        cases, aggregates = OrderedDict(), {}
        for entry in self.doc["benchmarks"]:
            if not isinstance(entry, dict):
                continue
            name = entry.get("run_name") or entry.get("name")
            if not isinstance(name, str):
                continue
            case = cases.setdefault(name, Case(name))
            if entry.get("error_occurred"):
                case.error = entry.get("error_message", "error")
                continue
            if entry.get("run_type") == "aggregate":
                if entry.get("aggregate_name") == "median":
                    aggregates[name] = entry
                continue
            self._add_values(case, entry)
        for name, entry in aggregates.items():
            if not cases[name].values:  # a report with aggregates only
                self._add_values(cases[name], entry)
        return list(cases.values())

    @staticmethod
    def _add_values(case, entry):
        scale = _time_scale(entry.get("time_unit", "us"))
        for key, value in entry.items():
            if key in _BOOKKEEPING or isinstance(value, bool):
                continue
            if isinstance(value, (int, float)) and math.isfinite(value):
                if key in ("real_time", "cpu_time"):
                    value *= scale
                case.values.setdefault(key, []).append(float(value))

    def machine(self):
        host = _mapping(self.context.get("host"))
        hostname = host.get("hostname") or _mapping(self.doc.get("context")).get("host_name") \
            or "?"
        gpus = _sequence(self.context.get("gpus"))
        names = [str(g.get("name", "GPU")) for g in gpus if isinstance(g, dict)]
        if names:
            gpu = names[0] if len(set(names)) == 1 else ", ".join(names)
            if len(names) > 1 and len(set(names)) == 1:
                gpu = f"{len(names)}x {gpu}"
        else:
            gpu = "no GPU"
        return f"{hostname} ({gpu})"

    def family_cases(self, predicate):
        return [c for c in self.cases if c.values and predicate(c)]

    def families(self):
        return list(OrderedDict.fromkeys(c.family for c in self.cases))

    def link_ceiling(self):
        """The link ceiling in GB/s: from the topology object when it states one, else derived
        from the link_pct counters (GB/s / link_pct * 100). None when the report has neither."""
        for holder in (_sequence(_mapping(self.context.get("topology")).get("gpus")),
                       _sequence(self.context.get("gpus"))):
            for gpu in holder:
                if not isinstance(gpu, dict):
                    continue
                for source in (gpu, gpu.get("link") or {}):
                    for key in ("ceiling_gb_per_s", "link_ceiling_gb_per_s", "ceiling_GB_per_s"):
                        value = source.get(key) if isinstance(source, dict) else None
                        if isinstance(value, (int, float)) and value > 0:
                            return float(value)
        derived = []
        for case in self.cases:
            rate, pct = case.median("GB_per_s"), case.median("link_pct")
            if rate and pct and pct > 0 and case.params.get("dir", "h2d") == "h2d":
                derived.append(rate / pct * 100)
        return statistics.median(derived) if derived else None


def primary_metric(cases):
    """(metric, unit, higher_is_better) for a list of cases of one family."""
    family = cases[0].family if cases else ""
    present = {m for c in cases for m in c.values}
    for prefix, metric in _PRIMARY:
        if (family + "/").startswith(prefix) and metric in present:
            return metric, _UNIT_OF.get(metric, metric), True
    for metric in ("GB_per_s", "samples_per_s"):
        if metric in present:
            return metric, _UNIT_OF[metric], True
    return "real_time", _UNIT_OF["real_time"], False


# --- Drawing -----------------------------------------------------------------------------------

class Skip(Exception):
    """A figure whose families are absent: skipped with this note."""


_STYLES = ["-", "--", ":", "-."]
_MARKERS = ["o", "s", "^", "D", "v", "P"]


class Palette:
    """A stable colour per series name across all panels of a figure."""

    def __init__(self):
        import matplotlib.pyplot as plt
        self._cycle = plt.rcParams["axes.prop_cycle"].by_key()["color"]
        self._colours = {}

    def __call__(self, series):
        if series not in self._colours:
            self._colours[series] = self._cycle[len(self._colours) % len(self._cycle)]
        return self._colours[series]


def series_name(case, exclude):
    parts = [f"{k}={v}" for k, v in case.params.items() if k not in exclude]
    return " ".join(parts) if parts else case.family


def machines_title(reports):
    if len(reports) == 1:
        return reports[0].label
    return " vs ".join(f"[{chr(65 + i)}] {r.label}" for i, r in enumerate(reports))


def new_figure(panels, title, reports):
    import matplotlib.pyplot as plt
    columns = min(panels, 2)
    rows = math.ceil(panels / columns)
    fig, axes = plt.subplots(rows, columns, figsize=(7.5 * columns, 5 * rows), squeeze=False)
    fig.suptitle(f"{title}\n{machines_title(reports)}", fontsize=11)
    flat = [ax for row in axes for ax in row]
    for extra in flat[panels:]:
        extra.set_visible(False)
    return fig, flat[:panels]


def size_axis(ax):
    from matplotlib.ticker import FuncFormatter
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _pos: size_label(v)))
    ax.set_xlabel("transfer size (bytes, log scale)")


def draw_lines(ax, reports, select, x_key, exclude, metric, palette, x_of=None):
    """One line per (series, machine): colour by series, line style by machine."""
    drawn = 0
    for index, report in enumerate(reports):
        groups = OrderedDict()
        for case in report.family_cases(select):
            x = x_of(case) if x_of else case.number(x_key)
            y = case.median(metric)
            if x is None or y is None:
                continue
            groups.setdefault(series_name(case, exclude), []).append((x, y))
        for series, points in groups.items():
            points.sort()
            label = series if len(reports) == 1 else f"{series} [{chr(65 + index)}]"
            ax.plot([p[0] for p in points], [p[1] for p in points], label=label,
                    color=palette(series), linestyle=_STYLES[index % len(_STYLES)],
                    marker=_MARKERS[index % len(_MARKERS)], markersize=4)
            drawn += 1
    return drawn


def draw_ceilings(ax, reports):
    for index, report in enumerate(reports):
        ceiling = report.link_ceiling()
        if ceiling:
            name = "link ceiling" if len(reports) == 1 else f"link ceiling [{chr(65 + index)}]"
            ax.axhline(ceiling, color="black", linewidth=1,
                       linestyle=_STYLES[index % len(_STYLES)], alpha=0.6,
                       label=f"{name}: {ceiling:.1f} GB/s")


def count_axis(ax, label):
    from matplotlib.ticker import MaxNLocator
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(label)


def finish(ax, title, ylabel):
    ax.set_title(title, fontsize=10)
    ax.set_ylabel(ylabel)
    ax.grid(True, which="both", alpha=0.3)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=7)


def in_family(*families):
    return lambda case: case.family in families or any(
        case.family.startswith(f + "/") for f in families)


def all_cases(reports, select):
    return [c for r in reports for c in r.family_cases(select)]


# --- The figures -------------------------------------------------------------------------------

def fig_bandwidth_vs_size(reports):
    select = in_family("h2d/memory")
    cases = all_cases(reports, select)
    if not cases:
        raise Skip("no h2d/memory cases (that family needs a GPU)")
    dirs = list(OrderedDict.fromkeys(c.params.get("dir", "h2d") for c in cases))
    fig, axes = new_figure(len(dirs), "Bandwidth vs size by host memory kind", reports)
    palette = Palette()
    for ax, direction in zip(axes, dirs):
        draw_lines(ax, reports, lambda c, d=direction: select(c) and c.params.get("dir") == d,
                   "bytes", {"dir", "bytes"}, "GB_per_s", palette)
        if direction == "h2d":
            draw_ceilings(ax, reports)
        size_axis(ax)
        finish(ax, f"direction {direction}", "GB/s (decimal)")
    return fig


def fig_pinned_pageable_ratio(reports):
    select = in_family("h2d/memory")
    if not all_cases(reports, select):
        raise Skip("no h2d/memory cases (that family needs a GPU)")
    import matplotlib.pyplot as plt
    fig, axes = new_figure(1, "Pinned / pageable bandwidth ratio (same API mode)", reports)
    ax = axes[0]
    palette = Palette()
    drawn = 0
    for index, report in enumerate(reports):
        by_key = {}
        for case in report.family_cases(select):
            kind = case.params.get("kind")
            if kind not in ("pinned", "pageable") or case.median("GB_per_s") is None:
                continue
            rest = tuple((k, v) for k, v in case.params.items() if k != "kind")
            by_key.setdefault(rest, {})[kind] = case
        series = OrderedDict()
        for rest, pair in by_key.items():
            if "pinned" in pair and "pageable" in pair:
                params = OrderedDict(rest)
                name = " ".join(f"{k}={v}" for k, v in params.items() if k != "bytes")
                ratio = pair["pinned"].median("GB_per_s") / pair["pageable"].median("GB_per_s")
                series.setdefault(name, []).append((pair["pinned"].number("bytes"), ratio))
        for name, points in series.items():
            points = sorted(p for p in points if p[0] is not None)
            label = name if len(reports) == 1 else f"{name} [{chr(65 + index)}]"
            ax.plot([p[0] for p in points], [p[1] for p in points], label=label,
                    color=palette(name), linestyle=_STYLES[index % len(_STYLES)],
                    marker=_MARKERS[index % len(_MARKERS)], markersize=4)
            drawn += 1
    if not drawn:
        plt.close(fig)
        raise Skip("h2d/memory has no pinned/pageable pair of the same mode and size")
    ax.axhline(1.0, color="gray", linewidth=1)
    size_axis(ax)
    finish(ax, "pinned GB/s divided by pageable GB/s", "ratio (>1: pinned faster)")
    return fig


def _largest_size_only(cases):
    """Among cases that differ in size, the largest size: sweeps over another axis."""
    sizes = [c.number("bytes") for c in cases if c.number("bytes") is not None]
    if not sizes:
        return lambda case: True
    largest = max(sizes)
    return lambda case: case.number("bytes") in (None, largest)


def _sweep_figure(reports, key_names, title, xlabel, skip_note, exclude_extra=(),
                  extra_metric_hint=None, ideal=False):
    """One panel per family of the cases that have a numeric parameter among key_names."""
    def key_of(case):
        for key in key_names:
            if case.number(key) is not None and key in case.params:
                return key
        return None

    cases = all_cases(reports, lambda c: key_of(c) is not None)
    if not cases:
        raise Skip(skip_note)
    families = list(OrderedDict.fromkeys(c.family for c in cases))
    panels = []
    for family in families:
        members = [c for c in cases if c.family == family]
        metric, unit, _higher = primary_metric(members)
        panels.append((family, metric, unit))
        if extra_metric_hint:
            extras = sorted({m for c in members for m in c.values if extra_metric_hint in m})
            panels.extend((family, extra, extra) for extra in extras)
    fig, axes = new_figure(len(panels), title, reports)
    palette = Palette()
    for ax, (family, metric, unit) in zip(axes, panels):
        members = [c for c in cases if c.family == family]
        largest = _largest_size_only(members)
        key = key_of(members[0])
        select = lambda c, f=family, l=largest: c.family == f and key_of(c) and l(c)  # noqa: E731
        draw_lines(ax, reports, select, key, {key, "bytes", *exclude_extra}, metric, palette)
        if ideal:
            _draw_ideal(ax, reports, select, key, metric)
        count_axis(ax, xlabel)
        sizes = {c.params.get("bytes") for c in members if largest(c) and "bytes" in c.params}
        at = f" at {sizes.pop()}" if len(sizes) == 1 else ""
        finish(ax, f"{family}: {metric}{at}", unit)
    return fig


def _draw_ideal(ax, reports, select, key, metric):
    """Linear scaling from the smallest count, for multi-GPU figures."""
    for report in reports[:1]:
        points = sorted((c.number(key), c.median(metric)) for c in report.family_cases(select)
                        if c.median(metric) is not None)
        if len(points) >= 2:
            x0, y0 = points[0]
            xs = sorted({p[0] for p in points})
            ax.plot(xs, [y0 * x / x0 for x in xs], color="gray", linestyle=":",
                    label="ideal linear scaling")


def fig_streams_overlap(reports):
    return _sweep_figure(reports, ["streams"], "Streams and overlap", "streams",
                         "no case has a streams=N parameter", extra_metric_hint="overlap")


def fig_batch_sweep(reports):
    return _sweep_figure(reports, ["batch", "batch_size"],
                         "Batch-size sweep by layout and pin policy", "batch size (samples)",
                         "no case has a batch=N parameter")


def fig_multi_gpu_scaling(reports):
    return _sweep_figure(reports, ["gpus"], "Multi-GPU scaling", "GPUs used at once",
                         "no case has a gpus=N parameter (multi-GPU families need 2+ GPUs)",
                         ideal=True)


def fig_staging_vs_pinned(reports):
    select = lambda c: "strategy" in c.params and c.number("bytes") is not None  # noqa: E731
    cases = all_cases(reports, select)
    if not cases:
        raise Skip("no case has strategy= and bytes= parameters")
    families = list(OrderedDict.fromkeys(c.family for c in cases))
    fig, axes = new_figure(len(families), "Staging vs pinned: transfer strategies by size",
                           reports)
    palette = Palette()
    for ax, family in zip(axes, families):
        members = [c for c in cases if c.family == family]
        metric, unit, _ = primary_metric(members)
        draw_lines(ax, reports, lambda c, f=family: select(c) and c.family == f, "bytes",
                   {"bytes"}, metric, palette)
        if metric == "GB_per_s":
            draw_ceilings(ax, reports)
        size_axis(ax)
        finish(ax, family, unit)
    return fig


def fig_pipeline_throughput(reports):
    select = in_family("pipeline")
    cases = all_cases(reports, select)
    if not cases:
        raise Skip("no pipeline/* cases (those families need a GPU)")
    metric, unit, _ = primary_metric(cases)
    names = list(OrderedDict.fromkeys(c.name for c in cases))
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(10, 1.2 + 0.35 * len(names) * max(1, len(reports))))
    fig.suptitle(f"Data-loader pipeline throughput\n{machines_title(reports)}", fontsize=11)
    height = 0.8 / len(reports)
    for index, report in enumerate(reports):
        values = {c.name: c.median(metric) for c in report.family_cases(select)}
        ys = [i + index * height for i in range(len(names))]
        label = report.label if len(reports) > 1 else metric
        ax.barh(ys, [values.get(n) or 0 for n in names], height=height, label=label)
    ax.set_yticks([i + 0.4 - height / 2 for i in range(len(names))])
    ax.set_yticklabels(names, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel(unit)
    ax.grid(True, axis="x", alpha=0.3)
    ax.legend(fontsize=7)
    return fig


def fig_host_memcpy_threads(reports):
    select = in_family("host/memcpy")
    cases = all_cases(reports, select)
    if not cases:
        raise Skip("no host/memcpy cases")
    fig, axes = new_figure(2, "Host memcpy bandwidth by threads", reports)
    palette = Palette()
    draw_lines(axes[0], reports, select, "bytes", {"bytes"}, "GB_per_s", palette)
    size_axis(axes[0])
    finish(axes[0], "by size, one line per thread count", "GB/s (decimal)")
    draw_lines(axes[1], reports, select, "threads", {"threads"}, "GB_per_s", palette)
    count_axis(axes[1], "host threads")
    finish(axes[1], "by threads, one line per size", "GB/s (decimal)")
    return fig


def fig_host_first_touch(reports):
    select = in_family("host/first_touch")
    if not all_cases(reports, select):
        raise Skip("no host/first_touch cases")
    fig, axes = new_figure(1, "Copy into fresh vs reused pages (page-fault cost)", reports)
    draw_lines(axes[0], reports, select, "bytes", {"bytes"}, "GB_per_s", Palette())
    size_axis(axes[0])
    finish(axes[0], "host/first_touch", "GB/s (decimal)")
    return fig


# name -> drawing function, in the order they are written.
FIGURES = OrderedDict([
    ("bandwidth_vs_size", fig_bandwidth_vs_size),
    ("pinned_pageable_ratio", fig_pinned_pageable_ratio),
    ("streams_overlap", fig_streams_overlap),
    ("batch_sweep", fig_batch_sweep),
    ("staging_vs_pinned", fig_staging_vs_pinned),
    ("pipeline_throughput", fig_pipeline_throughput),
    ("multi_gpu_scaling", fig_multi_gpu_scaling),
    ("host_memcpy_threads", fig_host_memcpy_threads),
    ("host_first_touch", fig_host_first_touch),
])


def build_figures(reports):
    """name -> matplotlib Figure for every figure that can be drawn; notes for the others."""
    figures, notes = OrderedDict(), []
    for name, draw in FIGURES.items():
        try:
            fig = draw(reports)
        except Skip as why:
            notes.append(f"skipped {name}: {why}")
            continue
        try:
            fig.tight_layout()
        except _LAYOUT_ERRORS as error:
            import matplotlib.pyplot as plt
            plt.close(fig)
            notes.append(f"skipped {name}: {_layout_failure(error)}")
            continue
        figures[name] = fig
    return figures, notes


# Values matplotlib cannot lay out (a hand-edited 1e308 GB/s) raise from deep inside it: they
# become a note naming the figure, not a traceback.
_LAYOUT_ERRORS = (ValueError, IndexError, OverflowError)


def _layout_failure(error):
    return (f"matplotlib could not draw it ({type(error).__name__}: {error}); are the values in "
            "the reports sane?")


def _save(fig, name, out_dir, formats):
    """Writes one figure; returns its paths. Raises Skip when matplotlib cannot draw it."""
    paths = []
    for fmt in formats:
        path = os.path.join(out_dir, f"{name}.{fmt}")
        try:
            fig.savefig(path, dpi=120)
        except OSError as error:
            raise ReportError(f"-o '{out_dir}': cannot write {path}: {error.strerror}") from None
        except _LAYOUT_ERRORS as error:
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
    for note in notes:
        print(f"note: {note}")
    for path in written:
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
