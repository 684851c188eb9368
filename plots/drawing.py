"""What every figure draws with: panels, a stable colour per series, size and count axes, lines
per (series, machine), the link ceiling."""

import math
from collections import OrderedDict

from report_reading import size_label


class Skip(Exception):
    """A figure that cannot be drawn from these reports: skipped with this note."""


# What one figure can show legibly (and matplotlib can lay out in seconds): a report of 100k
# families or series skips the figure with a note instead of drawing for minutes.
MAX_PANELS = 16
MAX_SERIES = 64
MAX_BARS = 200

STYLES = ["-", "--", ":", "-."]
MARKERS = ["o", "s", "^", "D", "v", "P"]


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
    if panels > MAX_PANELS:
        raise Skip(f"{panels} panels, more than the {MAX_PANELS} a figure shows; filter the "
                   "reports")
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
        if len(groups) > MAX_SERIES:
            raise Skip(f"{len(groups)} series in one panel, more than the {MAX_SERIES} it shows; "
                       "filter the reports")
        for series, points in groups.items():
            points.sort()
            label = series if len(reports) == 1 else f"{series} [{chr(65 + index)}]"
            ax.plot([p[0] for p in points], [p[1] for p in points], label=label,
                    color=palette(series), linestyle=STYLES[index % len(STYLES)],
                    marker=MARKERS[index % len(MARKERS)], markersize=4)
            drawn += 1
    return drawn


def draw_ceilings(ax, reports):
    for index, report in enumerate(reports):
        ceiling = report.link_ceiling()
        if ceiling:
            name = "link ceiling" if len(reports) == 1 else f"link ceiling [{chr(65 + index)}]"
            ax.axhline(ceiling, color="black", linewidth=1,
                       linestyle=STYLES[index % len(STYLES)], alpha=0.6,
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
