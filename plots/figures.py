"""The figures, one function each: reports in, a matplotlib Figure out, or Skip with the reason
when the reports hold nothing for it."""

from collections import OrderedDict

from drawing import (MARKERS, MAX_BARS, MAX_PANELS, MAX_SERIES, STYLES, Palette, Skip, all_cases, count_axis, draw_ceilings,
                     draw_lines, finish, in_family, machines_title, new_figure, size_axis)
from report_reading import primary_metric


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
        if len(series) > MAX_SERIES:
            raise Skip(f"{len(series)} pinned/pageable series, more than the {MAX_SERIES} a "
                       "panel shows; filter the reports")
        for name, points in series.items():
            points = sorted(p for p in points if p[0] is not None)
            label = name if len(reports) == 1 else f"{name} [{chr(65 + index)}]"
            ax.plot([p[0] for p in points], [p[1] for p in points], label=label,
                    color=palette(name), linestyle=STYLES[index % len(STYLES)],
                    marker=MARKERS[index % len(MARKERS)], markersize=4)
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
    members_of = OrderedDict()  # one pass: 100k families must not be 100k scans
    for case in cases:
        members_of.setdefault(case.family, []).append(case)
    if len(members_of) > MAX_PANELS:
        raise Skip(f"{len(members_of)} families, more than the {MAX_PANELS} panels a figure "
                   "shows; filter the reports")
    panels = []
    for family, members in members_of.items():
        metric, unit, _higher = primary_metric(members)
        panels.append((family, metric, unit))
        if extra_metric_hint:
            extras = sorted({m for c in members for m in c.values if extra_metric_hint in m})
            panels.extend((family, extra, extra) for extra in extras)
    fig, axes = new_figure(len(panels), title, reports)
    palette = Palette()
    for ax, (family, metric, unit) in zip(axes, panels):
        members = members_of[family]
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
        points = [p for p in points if p[0] is not None]
        if len(points) >= 2 and points[0][0] > 0:  # gpus=0 has no linear scaling to draw
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
    if len(names) > MAX_BARS:
        raise Skip(f"{len(names)} pipeline cases, more than the {MAX_BARS} bars it shows; filter "
                   "the reports")
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
