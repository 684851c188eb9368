"""The figures, one function each: reports in, a matplotlib Figure out, or Skip with the reason
when the reports hold nothing for it."""

import statistics
from collections import OrderedDict

from drawing import (BAR_INCHES, MARKERS, MAX_PANELS, MAX_SERIES, STYLES, BarLayout, Palette, Skip,
                     all_cases, constant_keys, count_axis, draw_bars, draw_ceilings, draw_lines,
                     draw_peers, finish, in_family, new_figure, size_axis)
from report_reading import axis_roles, primary_metric, unit_of


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
        draw_ceilings(ax, reports)  # per direction: the same ceiling both ways
        draw_peers(ax, reports, direction)
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


def _bar_panels(reports, families, skip_note):
    """(family, panel key=value pairs) -> its cases: one panel per workload, as the family's
    roles say (report_reading.axis_roles)."""
    cases = all_cases(reports, in_family(*families))
    if not cases:
        raise Skip(skip_note)
    panels = OrderedDict()
    for case in cases:
        panel_keys, _series = axis_roles(case)
        where = tuple((key, case.params.get(key)) for key in panel_keys)
        panels.setdefault((case.family, where), []).append(case)
    if len(panels) > MAX_PANELS:
        raise Skip(f"{len(panels)} panels, more than the {MAX_PANELS} a figure shows; filter "
                   "the reports")
    return panels


def _bar_figure(reports, families, title, skip_note, extra_metrics=(), reference=None):
    """Grouped bars, one panel per workload and metric: the family's primary metric, then each
    of extra_metrics it has. reference: (counter, label) drawn as a dashed line where present,
    e.g. the pinned copy a staging strategy is measured against. The link ceiling goes on every
    GB/s panel of a family that crosses the link."""
    panels = []
    for (family, where), members in _bar_panels(reports, families, skip_note).items():
        panel_keys, series_keys = axis_roles(members[0])
        present = {m for c in members for m in c.values}
        metrics = [primary_metric(members)[0]] + [m for m in extra_metrics if m in present]
        select = lambda c, f=family, w=where: c.family == f and all(  # noqa: E731
            c.params.get(k) == v for k, v in w)
        heading = " ".join([family] + [f"{k}={v}" for k, v in where])
        constant = constant_keys(members, set(panel_keys) | set(series_keys))
        for metric in metrics:
            layout = BarLayout(reports, select, series_keys, metric, skip=panel_keys)
            if layout.categories:
                panels.append((family, members, heading, constant, layout))
    if not panels:
        raise Skip(skip_note)
    fig, axes = new_figure(len(panels), title, reports,
                           heights=[1.0 + BAR_INCHES * p[-1].bars() for p in panels])
    palette = Palette()
    for ax, (family, members, heading, constant, layout) in zip(axes, panels):
        draw_bars(ax, layout, palette)
        if layout.metric == "GB_per_s" and family.startswith("h2d/"):
            draw_ceilings(ax, reports, across_bars=True)
        if reference:
            _draw_reference(ax, members, layout.metric, *reference)
        title_text = f"{heading}: {layout.metric}" + (f"\n{constant}" if constant else "")
        finish(ax, title_text, xlabel=unit_of(layout.metric))
    return fig


def _draw_reference(ax, members, metric, counter, label):
    """A dashed line at the median of a reference counter (in the panel's metric's unit)."""
    values = [c.median(counter) for c in members if c.median(counter) is not None]
    if values and metric == "GB_per_s":
        value = statistics.median(values)
        ax.axvline(value, color="tab:green", linestyle="--", linewidth=1,
                   label=f"{label}: {value:.1f} GB/s")


def fig_streams_overlap(reports):
    return _bar_figure(reports, ["h2d/streams"], "Streams: bandwidth and overlap by work",
                       "no h2d/streams cases (that family needs a GPU)",
                       extra_metrics=("overlap_pct",))


def fig_batch_sweep(reports):
    return _bar_figure(reports, ["h2d/batch"], "ML batches by layout, pin policy and batch size",
                       "no h2d/batch cases (that family needs a GPU)")


def fig_staging_vs_pinned(reports):
    return _bar_figure(reports, ["h2d/staging"],
                       "Staging vs pinned: moving a pageable source, by strategy",
                       "no h2d/staging cases (that family needs a GPU)",
                       reference=("pinned_GB_per_s", "pinned copy, same size"))


def fig_decode(reports):
    return _bar_figure(reports, ["h2d/decode"], "JPEG batch to float32 on the device, by route",
                       "no h2d/decode cases (that family needs a GPU)")


def fig_pipeline_throughput(reports):
    return _bar_figure(reports, ["pipeline", "host/pipeline"], "Data-loader pipeline throughput",
                       "no pipeline/* or host/pipeline cases")


def _gpu_count(case):
    """How many GPUs a multi case ran on: its k counter, else the ordinals of gpus=0,1,2."""
    counted = case.median("k")
    if counted is not None:
        return counted
    ordinals = (case.params.get("gpus") or "").split(",")
    return float(len(ordinals)) if all(o.isdigit() for o in ordinals) else None


def fig_multi_gpu_scaling(reports):
    cases = all_cases(reports, lambda c: c.family.startswith("multi/") and
                      _gpu_count(c) is not None)
    counts = {_gpu_count(c) for c in cases}
    if len(counts) < 2:
        raise Skip(f"multi-GPU scaling needs cases on 2 or more GPU counts; these reports have "
                   f"{len(counts)} (multi-GPU families need 2+ GPUs)")
    members_of = OrderedDict()
    for case in cases:
        members_of.setdefault(case.family, []).append(case)
    fig, axes = new_figure(len(members_of), "Multi-GPU scaling", reports)
    palette = Palette()
    for ax, (family, members) in zip(axes, members_of.items()):
        metric, unit, _higher = primary_metric(members)
        largest = _largest_size_only(members)
        select = lambda c, f=family, l=largest: c.family == f and l(c) and \
            _gpu_count(c) is not None  # noqa: E731
        draw_lines(ax, reports, select, "gpus", {"gpus", "bytes"}, metric, palette,
                   x_of=_gpu_count)
        _draw_ideal(ax, reports, select, metric)
        count_axis(ax, "GPUs used at once")
        finish(ax, f"{family}: {metric}", unit)
    return fig


def _draw_ideal(ax, reports, select, metric):
    """Linear scaling from the smallest count, for multi-GPU figures."""
    for report in reports[:1]:
        points = sorted((_gpu_count(c), c.median(metric)) for c in report.family_cases(select)
                        if c.median(metric) is not None)
        if len(points) >= 2 and points[0][0] > 0:  # k=0 has no linear scaling to draw
            x0, y0 = points[0]
            xs = sorted({p[0] for p in points})
            ax.plot(xs, [y0 * x / x0 for x in xs], color="gray", linestyle=":",
                    label="ideal linear scaling")


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
    ("decode", fig_decode),
    ("pipeline_throughput", fig_pipeline_throughput),
    ("multi_gpu_scaling", fig_multi_gpu_scaling),
    ("host_memcpy_threads", fig_host_memcpy_threads),
    ("host_first_touch", fig_host_first_touch),
])
