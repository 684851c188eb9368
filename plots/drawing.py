"""What every figure draws with: panels, a stable colour per series, size and count axes, lines
per (series, machine), the link ceiling."""

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
HATCHES = ["", "//", "..", "xx"]  # bars of machine A, B, ... (colour stays the series')
BAR_INCHES = 0.2  # height of one bar slot: a panel grows with its bars instead of squeezing them


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


def new_figure(panels, title, reports, heights=None):
    """One column of panels, each legend on its right: line panels of one height, or with heights
    (inches, one per panel) bar panels as tall as their bars need."""
    if panels > MAX_PANELS:
        raise Skip(f"{panels} panels, more than the {MAX_PANELS} a figure shows; filter the "
                   "reports")
    import matplotlib.pyplot as plt
    heights = heights or [3.6] * panels
    fig, axes = plt.subplots(panels, 1, figsize=(10, 0.8 + sum(heights)), squeeze=False,
                             gridspec_kw={"height_ratios": heights})
    fig.suptitle(f"{title}\n{machines_title(reports)}", fontsize=11)
    return fig, [row[0] for row in axes]


def size_axis(ax):
    from matplotlib.ticker import FuncFormatter, LogLocator, NullLocator
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_locator(LogLocator(base=4))  # every power of 2 crowds the labels
    ax.xaxis.set_minor_locator(NullLocator())
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


def draw_peers(ax, reports, direction):
    """The peer tools' figures for one copy direction: a dashed black line per peer and machine,
    so h2dbench's own lines read against the tools users trust."""
    for index, report in enumerate(reports):
        for (peer, peer_direction), points in report.peer_points().items():
            if peer_direction != direction:
                continue
            points.sort()
            label = peer if len(reports) == 1 else f"{peer} [{chr(65 + index)}]"
            ax.plot([p[0] for p in points], [p[1] for p in points], label=label, color="black",
                    linestyle="--", marker="x", markersize=6, linewidth=1)


def draw_ceilings(ax, reports, across_bars=False):
    """Each machine's PCIe link ceiling: a horizontal line over lines, a vertical one across
    horizontal bars."""
    rule = ax.axvline if across_bars else ax.axhline
    for index, report in enumerate(reports):
        ceiling = report.link_ceiling()
        if ceiling:
            name = "link ceiling" if len(reports) == 1 else f"link ceiling [{chr(65 + index)}]"
            rule(ceiling, color="black", linewidth=1, linestyle=STYLES[index % len(STYLES)],
                 alpha=0.6, label=f"{name}: {ceiling:.1f} GB/s")


def varying_keys(cases, skip):
    """The keys of the cases' names whose values differ among them, or that some names lack
    (decode=cpu on one pipeline case tells it from the others), in name order."""
    values = OrderedDict()
    for case in cases:
        for key, value in case.params.items():
            if key not in skip:
                values.setdefault(key, []).append(value)
    return [key for key, seen in values.items() if len(set(seen)) > 1 or len(seen) < len(cases)]


def constant_keys(cases, skip):
    """'key=value ...' for the keys every case has with one value: said once, in a title."""
    keys = [k for k in (cases[0].params if cases else {}) if k not in skip and
            all(c.params.get(k) == cases[0].params[k] for c in cases)]
    return " ".join(f"{k}={cases[0].params[k]}" for k in keys)


def _keys_label(case, keys):
    return " ".join(f"{k}={case.params[k]}" for k in keys if k in case.params)


class BarLayout:
    """Grouped bars of one panel: a group per category (the name keys that vary, but the series
    keys), a slot per (series, machine) in every group, so a missing case is a visible gap."""

    def __init__(self, reports, select, series_keys, metric, skip=()):
        cells = [(index, case) for index, report in enumerate(reports)
                 for case in report.family_cases(select) if case.median(metric) is not None]
        keys = varying_keys([c for _, c in cells], set(series_keys) | set(skip))
        self.metric = metric
        self.categories = list(OrderedDict.fromkeys(
            _keys_label(c, keys) or c.family for _, c in cells))
        self.slots = list(OrderedDict.fromkeys((_keys_label(c, series_keys), i) for i, c in cells))
        if len(self.categories) * len(self.slots) > MAX_BARS:
            raise Skip(f"{len(self.categories) * len(self.slots)} bars in one panel, more than "
                       f"the {MAX_BARS} it shows; filter the reports")
        row = {category: n for n, category in enumerate(self.categories)}
        self.values = {(row[_keys_label(c, keys) or c.family], (_keys_label(c, series_keys), i)):
                       c.median(metric) for i, c in cells}
        self.several_machines = len(reports) > 1

    def bars(self):
        return len(self.categories) * len(self.slots)


def draw_bars(ax, layout, palette):
    """Horizontal grouped bars (labels stay readable at any length): colour by series, hatch by
    machine, the value at the end of each bar."""
    height = 0.8 / len(layout.slots)
    for position, (series, machine) in enumerate(layout.slots):
        rows = [(row, value) for (row, slot), value in layout.values.items()
                if slot == (series, machine)]
        offset = (position - (len(layout.slots) - 1) / 2) * height
        label = series or None
        if layout.several_machines:
            label = f"{series} [{chr(65 + machine)}]".strip()
        bars = ax.barh([row + offset for row, _ in rows], [value for _, value in rows],
                       height=height, color=palette(series or layout.metric),
                       hatch=HATCHES[machine % len(HATCHES)], edgecolor="white", linewidth=0.5,
                       label=label)
        ax.bar_label(bars, labels=[_short(value) for _, value in rows], fontsize=6, padding=2)
    ax.set_yticks(range(len(layout.categories)))
    ax.set_yticklabels(layout.categories, fontsize=8)
    ax.set_ylim(len(layout.categories) - 0.5, -0.5)  # first category on top
    ax.margins(x=0.12)  # room for the value labels


def _short(value):
    return f"{value:,.0f}" if 1000 <= abs(value) < 1e7 else f"{value:.3g}"


def count_axis(ax, label):
    from matplotlib.ticker import MaxNLocator
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(label)


def finish(ax, title, ylabel=None, xlabel=None):
    """Title, labels, grid, and the legend outside the data, right of the panel."""
    ax.set_title(title, fontsize=10)
    if ylabel:
        ax.set_ylabel(ylabel)
    if xlabel:
        ax.set_xlabel(xlabel)
    ax.grid(True, which="both", alpha=0.3)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0)


def in_family(*families):
    return lambda case: case.family in families or any(
        case.family.startswith(f + "/") for f in families)


def all_cases(reports, select):
    return [c for r in reports for c in r.family_cases(select)]
