#!/usr/bin/env python3
"""Tests of plots/plot_reports.py: real host-only reports from h2dbench, and reports built here
to cover GPU families, differing machines and bad input. Run by ctest through plots_test.sh,
which picks a Python that has matplotlib.

    python3 tests/plots_test.py --h2dbench build/ci/h2dbench
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "plots", "plot_reports.py")
sys.path.insert(0, os.path.join(HERE, "..", "plots"))

import matplotlib  # noqa: E402

matplotlib.use("Agg")
import plot_reports  # noqa: E402
import report_reading  # noqa: E402

H2DBENCH = None  # set from --h2dbench


def labels(fig):
    """The legend labels of a figure's lines (matplotlib names unlabelled lines '_child...')."""
    return sorted(line.get_label() for ax in fig.axes for line in ax.get_lines()
                  if not line.get_label().startswith("_"))


def legend_labels(fig):
    """Every panel's legend entries, bars and lines alike."""
    return sorted(label for ax in fig.axes for label in ax.get_legend_handles_labels()[1])


def bar_rows(ax):
    return [tick.get_text() for tick in ax.get_yticklabels()]


def run_script(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True,
                          check=False)


# --- Reports built for tests (test data, never published as results) ---------------------------

def make_report(hostname, gpus=(), topology=None):
    context = {
        "schema": 1, "version": "0.1.0", "git_sha": "test",
        "cuda": {"runtime_version": "12.4", "driver_version": "12.4" if gpus else "none",
                 "usable": bool(gpus), "unavailable_reason": "" if gpus else "no driver"},
        "gpus": [{"ordinal": i, "name": name} for i, name in enumerate(gpus)],
        "host": {"hostname": hostname, "cpu_model": "Test CPU", "cores": 8, "numa_nodes": 1},
        "run": {"preset": "default"},
        "skipped_families": [], "skipped_cases": [], "failed_cases": [],
    }
    if topology is not None:
        context["topology"] = topology
    return {"context": {"host_name": hostname}, "benchmarks": [], "h2dbench": context}


def add_case(report, name, counters, repetitions=1):
    for index in range(repetitions):
        entry = {"name": name, "run_name": name, "run_type": "iteration",
                 "repetition_index": index, "repetitions": repetitions, "iterations": 10,
                 "real_time": 100.0, "cpu_time": 10.0, "time_unit": "us"}
        entry.update(counters)
        report["benchmarks"].append(entry)


SIZES = {"4KiB": 4096, "1MiB": 1 << 20, "64MiB": 64 << 20}


def gpu_machine(hostname, peak, with_link_pct):
    """A GPU machine with every family the figures know: memory, streams, batches, staging,
    pipeline, multi-GPU. `peak` scales its bandwidth."""
    topology = None if with_link_pct else {
        "gpus": [{"ordinal": 0, "link": {"generation": 5, "width": 16, "ceiling_gb_per_s": 58.5}}]}
    report = make_report(hostname, ["Test GPU"] * 2, topology)
    for direction in ("h2d", "d2h"):
        for kind, share in (("pageable", 0.3), ("pinned", 0.9)):
            for mode in ("sync", "async"):
                for label, size in SIZES.items():
                    rate = peak * share * (size / (size + 65536))
                    counters = {"GB_per_s": rate, "bytes": float(size), "cv_pct": 1.0,
                                "latency_us": size / rate / 1e3, "host_block_us": 1.0}
                    if with_link_pct:
                        counters["link_pct"] = rate / 26.0 * 100
                    add_case(report, f"h2d/memory/dir={direction}/kind={kind}/mode={mode}/"
                                     f"bytes={label}", counters)
    for streams in (1, 2, 4):
        add_case(report, f"h2d/streams/kind=pinned/streams={streams}/bytes=64MiB",
                 {"GB_per_s": peak * min(1.0, 0.5 * streams), "streams": float(streams),
                  "bytes": float(SIZES["64MiB"]), "overlap_pct": 20.0 * streams})
    for task in ("train", "predict"):
        for layout in ("single", "tuple"):
            for pin in ("none", "per_member"):
                for batch in (1, 16):
                    add_case(report, f"h2d/batch/task={task}/layout={layout}/pin={pin}/"
                                     f"batch={batch}",
                             {"GB_per_s": peak * 0.1 * batch ** 0.3, "batch_size": float(batch),
                              "samples_per_s": 1000.0, "pinned_fraction": float(pin != "none")})
    for route in ("cpu", "hardware"):
        for batch in (1, 16):
            add_case(report, f"h2d/decode/tiles=256x256/decode={route}/normalize=gpu/"
                             f"batch={batch}",
                     {"GB_per_s": 0.5, "samples_per_s": 1000.0 * batch * (route == "hardware" or
                                                                           0.2)})
    for strategy in ("pageable", "pinned", "staged"):
        for label, size in SIZES.items():
            add_case(report, f"h2d/staging/strategy={strategy}/bytes={label}",
                     {"GB_per_s": peak * {"pageable": 0.3, "pinned": 0.9, "staged": 0.7}[strategy],
                      "bytes": float(size)})
    for workers in (2, 4):
        add_case(report, f"pipeline/train/workers={workers}/prefetch=2",
                 {"samples_per_s": 500.0 * workers * peak / 25, "workers": float(workers)})
    for gpus in ("0", "0,1"):  # GPU ordinals, as multi/* names them: 1 GPU, then 2
        add_case(report, f"multi/h2d_concurrent/gpus={gpus}/set=first/bytes=64MiB",
                 {"GB_per_s": peak * len(gpus.split(",")) * 0.8, "bytes": float(SIZES["64MiB"])})
    return report


class BuiltReports(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="h2d_plots_")
        cls.gen4 = os.path.join(cls.tmp.name, "gen4.json")
        cls.gen5 = os.path.join(cls.tmp.name, "gen5.json")
        with open(cls.gen4, "w") as out:
            json.dump(gpu_machine("rig4", 25.0, with_link_pct=True), out)
        with open(cls.gen5, "w") as out:
            json.dump(gpu_machine("rig5", 55.0, with_link_pct=False), out)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def figures(self, *paths):
        reports = [plot_reports.load_report(p) for p in paths]
        return plot_reports.build_figures(reports)

    def test_every_gpu_figure_is_drawn_with_its_series(self):
        figures, notes = self.figures(self.gen4)
        expected = {"bandwidth_vs_size", "pinned_pageable_ratio", "streams_overlap",
                    "batch_sweep", "staging_vs_pinned", "pipeline_throughput",
                    "multi_gpu_scaling"}
        self.assertTrue(expected <= set(figures), (sorted(figures), notes))
        bandwidth = labels(figures["bandwidth_vs_size"])
        for series in ("kind=pageable mode=sync", "kind=pinned mode=async"):
            self.assertEqual(bandwidth.count(series), 2, bandwidth)  # one per direction panel
        # The ceiling from link_pct counters: 26 GB/s.
        self.assertIn("link ceiling: 26.0 GB/s", bandwidth)
        self.assertEqual(len(figures["bandwidth_vs_size"].axes), 2)
        self.assertEqual(bandwidth.count("link ceiling: 26.0 GB/s"), 2)  # the same both ways
        self.assertIn("rig4 (2x Test GPU)", figures["bandwidth_vs_size"]._suptitle.get_text())
        self.assertEqual(labels(figures["pinned_pageable_ratio"]).count("dir=h2d mode=sync"), 1)
        streams = figures["streams_overlap"]
        self.assertEqual(len(streams.axes), 2)  # GB/s and overlap_pct
        self.assertEqual(bar_rows(streams.axes[0]), ["h2d/streams"])  # nothing else varies
        self.assertIn("streams=4", legend_labels(streams))
        self.assertIn("strategy=staged", bar_rows(figures["staging_vs_pinned"].axes[0]))
        self.assertIn("ideal linear scaling", labels(figures["multi_gpu_scaling"]))
        bars = figures["pipeline_throughput"].axes[0]
        self.assertEqual(len(bars.patches), 2)
        for fig in figures.values():
            matplotlib.pyplot.close(fig)

    def test_machines_overlay_with_a_style_each(self):
        figures, _ = self.figures(self.gen4, self.gen5)
        bandwidth = labels(figures["bandwidth_vs_size"])
        self.assertIn("kind=pinned mode=async [A]", bandwidth)
        self.assertIn("kind=pinned mode=async [B]", bandwidth)
        # B's ceiling comes from its topology object.
        self.assertIn("link ceiling [A]: 26.0 GB/s", bandwidth)
        self.assertIn("link ceiling [B]: 58.5 GB/s", bandwidth)
        title = figures["bandwidth_vs_size"]._suptitle.get_text()
        self.assertIn("[A] rig4", title)
        self.assertIn("[B] rig5", title)
        lines = {line.get_label(): line for line in figures["bandwidth_vs_size"].axes[0].get_lines()}
        self.assertNotEqual(lines["kind=pinned mode=async [A]"].get_linestyle(),
                            lines["kind=pinned mode=async [B]"].get_linestyle())
        self.assertEqual(lines["kind=pinned mode=async [A]"].get_color(),
                         lines["kind=pinned mode=async [B]"].get_color())
        self.assertEqual(len(figures["pipeline_throughput"].axes[0].patches), 4)
        for fig in figures.values():
            matplotlib.pyplot.close(fig)

    def test_missing_cases_on_one_machine_still_draw(self):
        partial = gpu_machine("partial", 30.0, with_link_pct=True)
        partial["benchmarks"] = [b for b in partial["benchmarks"]
                                 if "kind=pageable" not in b["name"]]
        path = os.path.join(self.tmp.name, "partial.json")
        with open(path, "w") as out:
            json.dump(partial, out)
        figures, _ = self.figures(self.gen4, path)
        bandwidth = labels(figures["bandwidth_vs_size"])
        self.assertIn("kind=pageable mode=sync [A]", bandwidth)
        self.assertNotIn("kind=pageable mode=sync [B]", bandwidth)
        ratio = labels(figures["pinned_pageable_ratio"])
        self.assertTrue(all(label.endswith("[A]") for label in ratio), ratio)
        for fig in figures.values():
            matplotlib.pyplot.close(fig)

    def test_bad_input_is_a_clear_error(self):
        missing = os.path.join(self.tmp.name, "nope.json")
        result = run_script(missing, "-o", self.tmp.name)
        self.assertEqual(result.returncode, 2)
        self.assertIn(f"report '{missing}': no such file", result.stderr)

        truncated = os.path.join(self.tmp.name, "truncated.json")
        with open(self.gen4) as source, open(truncated, "w") as out:
            out.write(source.read()[:500])
        result = run_script(truncated, "-o", self.tmp.name)
        self.assertEqual(result.returncode, 2)
        self.assertIn("perhaps truncated", result.stderr)

        foreign = os.path.join(self.tmp.name, "foreign.json")
        with open(foreign, "w") as out:
            json.dump({"context": {}, "benchmarks": [], "h2dbench": 1}, out)
        result = run_script(foreign, "-o", self.tmp.name)
        self.assertEqual(result.returncode, 2)
        self.assertIn("'h2dbench' entry is not an object", result.stderr)

        nothing = make_report("odd")
        add_case(nothing, "unknown/family/x=1", {"GB_per_s": 1.0})
        odd = os.path.join(self.tmp.name, "odd.json")
        with open(odd, "w") as out:
            json.dump(nothing, out)
        result = run_script(odd, "-o", os.path.join(self.tmp.name, "odd_out"))
        self.assertEqual(result.returncode, 2)
        self.assertIn("none of the figures can be drawn", result.stderr)
        self.assertIn("unknown/family", result.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.tmp.name, "odd_out")))

    def write(self, name, document):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w") as out:
            json.dump(document, out)
        return path

    def assert_one_line_error(self, result, fragment):
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn(fragment, result.stderr)
        self.assertNotIn("Traceback", result.stderr)

    def test_bad_output_folders_and_other_files_are_clear_errors(self):
        out = os.path.join(self.tmp.name, "figures")
        self.assert_one_line_error(run_script(self.gen4, "-o", self.gen4), "is a file")
        self.assert_one_line_error(run_script(self.gen4, "-o", "/proc/h2d/figures"),
                                   "cannot create the folder")
        self.assert_one_line_error(run_script("/dev/zero", "-o", out), "is a device")
        deep = os.path.join(self.tmp.name, "deep.json")
        with open(deep, "w") as handle:
            handle.write("[" * 100000 + "]" * 100000)
        self.assert_one_line_error(run_script(deep, "-o", out), "nested deeper than 64 levels")
        newer = gpu_machine("future", 25.0, with_link_pct=True)
        newer["h2dbench"]["schema"] = 2
        self.assert_one_line_error(run_script(self.write("newer.json", newer), "-o", out),
                                   "schema 2")

    def test_hand_edited_sections_cost_labels_not_figures(self):
        edited = gpu_machine("edited", 25.0, with_link_pct=True)
        edited["h2dbench"].update({"host": "a string", "gpus": [1, 2], "topology": "x"})
        edited["context"] = []
        out = os.path.join(self.tmp.name, "edited_out")
        result = run_script(self.write("edited.json", edited), "-o", out)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertTrue(os.path.exists(os.path.join(out, "bandwidth_vs_size.png")))

    def test_values_matplotlib_cannot_lay_out_skip_the_figure(self):
        absurd = gpu_machine("absurd", 25.0, with_link_pct=True)
        for entry in absurd["benchmarks"]:
            entry["GB_per_s"] = 1e308
        result = run_script(self.write("absurd.json", absurd), "-o",
                            os.path.join(self.tmp.name, "absurd_out"))
        self.assertIn(result.returncode, (0, 2), result.stderr)
        self.assertNotIn("Traceback", result.stderr)
        self.assertIn("matplotlib could not draw it", result.stdout + result.stderr)


    # --- Issue 17: what a mutation fuzz of a real report found --------------------------------

    def assert_drawn_with_notes(self, document, name):
        """Exit 0 or 2, one line per problem, never a traceback; returns stdout + stderr."""
        result = run_script(self.write(f"{name}.json", document), "-o",
                            os.path.join(self.tmp.name, f"{name}_out"))
        self.assertIn(result.returncode, (0, 2), result.stdout + result.stderr)
        self.assertNotIn("Traceback", result.stdout + result.stderr)
        return result.stdout + result.stderr

    def test_zero_gpus_degenerate_values_and_odd_time_units_are_notes(self):
        # ZeroDivisionError on gpus=0 (the ideal scaling line divided by the smallest count).
        zero = gpu_machine("zero", 25.0, with_link_pct=True)
        add_case(zero, "h2d/multi/gpus=0/bytes=64MiB", {"GB_per_s": 1.0, "gpus": 0.0})
        output = self.assert_drawn_with_notes(zero, "zero_gpus")
        self.assertIn("wrote", output)
        # numpy LinAlgError "Singular matrix" when every value is the same extreme number.
        flat = gpu_machine("flat", 25.0, with_link_pct=True)
        for entry in flat["benchmarks"]:
            for key, value in list(entry.items()):
                if isinstance(value, float):
                    entry[key] = 1e308
        self.assert_drawn_with_notes(flat, "flat")
        # TypeError when time_unit is a list.
        odd = gpu_machine("odd_unit", 25.0, with_link_pct=True)
        for entry in odd["benchmarks"]:
            entry["time_unit"] = ["us"]
        self.assertIn("wrote", self.assert_drawn_with_notes(odd, "odd_unit"))

    def test_a_singular_axis_is_a_note(self):
        # numpy's LinAlgError is no ValueError: a pinned case at bytes=-1.7e308 and 0 GB/s made
        # an axis singular, and it ended as an "internal error" (scripts/ci/fuzz-reports.sh).
        doc = gpu_machine("singular", 25.0, with_link_pct=True)
        for entry in doc["benchmarks"]:
            if "kind=pinned" in entry["name"]:
                entry.update({"GB_per_s": 0, "bytes": -1.7e308, "real_time": -1.7e308})
        output = self.assert_drawn_with_notes(doc, "singular")
        self.assertIn("matplotlib could not draw it (LinAlgError: Singular matrix)", output)
        self.assertIn("wrote", output)

    def test_reports_beyond_the_limits_are_one_line_errors(self):
        out = os.path.join(self.tmp.name, "limits_out")
        big = os.path.join(self.tmp.name, "big_number.json")
        with open(big, "w") as handle:
            handle.write('{"context": {}, "benchmarks": [{"name": "a/b", "real_time": 1e400}]}')
        self.assert_one_line_error(run_script(big, "-o", out), "beyond the range of a double")
        named = make_report("named")
        add_case(named, "n" * 30000, {"GB_per_s": 1.0})  # std::regex crashed on it in compare
        self.assert_one_line_error(run_script(self.write("long_name.json", named), "-o", out),
                                   "a case name has at most 1024")
        nested = make_report("nested")
        nested["h2dbench"]["extra"] = json.loads("[" * 65 + "]" * 65)
        self.assert_one_line_error(run_script(self.write("nested.json", nested), "-o", out),
                                   "nested deeper than 64 levels")

    def test_hundred_thousand_entries_take_seconds(self):
        many = make_report("many", ["GPU"] * 1000)
        many["h2dbench"]["gpus"] = [{"name": f"GPU {i}"} for i in range(100000)]
        for i in range(100000):
            many["benchmarks"].append({"name": f"f{i}/threads={i}/bytes=1MiB",
                                       "run_type": "iteration", "GB_per_s": 1.0 + i})
        add_case(many, "host/memcpy/threads=1/bytes=1MiB", {"GB_per_s": 3.0})
        started = time.monotonic()
        output = self.assert_drawn_with_notes(many, "many")
        self.assertLess(time.monotonic() - started, 60)  # ran past 20 s alone; ~5 s now
        self.assertIn("skipped batch_sweep", output)

    def test_plain_google_benchmark_reports_are_drawn(self):
        plain = make_report("plain")
        del plain["h2dbench"]
        add_case(plain, "host/memcpy/threads=1/bytes=1MiB", {"GB_per_s": 3.0})
        add_case(plain, "host/memcpy/threads=2/bytes=1MiB", {"GB_per_s": 5.0})
        report = plot_reports.load_report(self.write("plain.json", plain))
        self.assertIn("machine unknown", report.label)
        figures, _notes = plot_reports.build_figures([report])
        self.assertIn("host_memcpy_threads", figures)

    # --- Issue 30: figures that read at a glance -----------------------------------------------

    def test_batch_figure_is_grouped_bars_one_panel_per_task(self):
        figures, _ = self.figures(self.gen4)
        batch = figures["batch_sweep"]
        self.assertEqual([ax.get_title().split(":")[0] for ax in batch.axes],
                         ["h2d/batch task=train", "h2d/batch task=predict"])
        for ax in batch.axes:
            self.assertEqual(len(ax.patches), 8)  # 2 layouts x 2 batch sizes x 2 pin policies
            self.assertEqual([line.get_label() for line in ax.get_lines()],
                             ["link ceiling: 26.0 GB/s"])  # bars, and the ceiling as a line
            self.assertEqual(bar_rows(ax), ["layout=single batch=1", "layout=single batch=16",
                                            "layout=tuple batch=1", "layout=tuple batch=16"])
            self.assertEqual(ax.get_legend_handles_labels()[1][1:],
                             ["pin=none", "pin=per_member"])
        matplotlib.pyplot.close("all")

    def test_decode_and_pipeline_use_their_primary_metric(self):
        figures, _ = self.figures(self.gen4)
        decode = figures["decode"].axes
        self.assertEqual(len(decode), 1)
        self.assertEqual(decode[0].get_title(), "h2d/decode tiles=256x256: samples_per_s")
        self.assertEqual(decode[0].get_xlabel(), "samples/s")
        widths = sorted(bar.get_width() for bar in decode[0].patches)
        self.assertEqual(widths, [200.0, 1000.0, 3200.0, 16000.0])  # samples/s, not GB/s
        pipeline = figures["pipeline_throughput"].axes[0]
        self.assertEqual(pipeline.get_xlabel(), "samples/s")
        self.assertEqual(bar_rows(pipeline), ["workers=2", "workers=4"])
        matplotlib.pyplot.close("all")

    def test_a_bar_missing_on_one_machine_leaves_a_gap(self):
        partial = gpu_machine("gap", 25.0, with_link_pct=True)
        partial["benchmarks"] = [b for b in partial["benchmarks"]
                                 if b["name"] != "h2d/batch/task=train/layout=tuple/pin=none/batch=16"]
        figures, _ = self.figures(self.gen4, self.write("gap.json", partial))
        train = figures["batch_sweep"].axes[0]
        self.assertEqual(len(train.patches), 15)  # 4 rows x (2 pins x 2 machines), one missing
        self.assertIn("pin=none [B]", train.get_legend_handles_labels()[1])
        matplotlib.pyplot.close("all")

    def test_legends_sit_outside_the_data(self):
        figures, _ = self.figures(self.gen4)
        for name, fig in figures.items():
            fig.canvas.draw()
            for ax in fig.axes:
                legend = ax.get_legend()
                if legend is not None:
                    self.assertGreaterEqual(legend.get_window_extent().x0,
                                            ax.get_window_extent().x1, name)
        matplotlib.pyplot.close("all")

    def test_one_gpu_count_skips_the_scaling_figure(self):
        single = gpu_machine("one", 25.0, with_link_pct=True)
        single["benchmarks"] = [b for b in single["benchmarks"] if "gpus=0,1" not in b["name"]]
        figures, notes = self.figures(self.write("one_gpu.json", single))
        self.assertNotIn("multi_gpu_scaling", figures)
        self.assertIn("skipped multi_gpu_scaling: multi-GPU scaling needs cases on 2 or more GPU "
                      "counts; these reports have 1 (multi-GPU families need 2+ GPUs)", notes)
        matplotlib.pyplot.close("all")


H200 = os.path.join(HERE, "..", "results", "2026-12-04_h200-pcie5")


@unittest.skipUnless(os.path.isdir(H200), "the published H200 reports are not in results/")
class Declarations(unittest.TestCase):
    """The roles the plots read: from the report, else from plots/declared_families.json, which
    must be what h2dbench declares (harness/core/family_declarations.cpp)."""

    @unittest.skipIf(H2DBENCH is None and "--h2dbench" not in sys.argv, "needs --h2dbench")
    def test_the_exported_file_is_what_h2dbench_declares(self):
        result = subprocess.run([H2DBENCH, "declarations"], capture_output=True, text=True,
                                check=True)
        with open(report_reading.DECLARED_FILE, encoding="utf-8") as f:
            exported = json.load(f)
        self.assertEqual(exported, json.loads(result.stdout),
                         "plots/declared_families.json is stale: rewrite it with "
                         "`h2dbench declarations > plots/declared_families.json`")

    def test_a_family_never_seen_is_placed_by_its_declaration(self):
        report = make_report("new", ["Test GPU"])
        report["h2dbench"]["declarations"] = [{
            "family": "future/ring", "metric": {"counter": "wait_ms", "unit": "ms",
                                                "better": "lower"},
            "axes": [{"key": "where", "role": "workload", "plot": "panel"},
                     {"key": "how", "role": "strategy", "baseline": "plain"},
                     {"key": "size", "role": "workload"}]}]
        for where in ("near", "far"):
            for how in ("plain", "ring"):
                add_case(report, f"future/ring/where={where}/how={how}/size=1",
                         {"wait_ms": 5.0 if how == "ring" else 9.0})
        path = os.path.join(tempfile.mkdtemp(prefix="h2d_plots_decl_"), "new.json")
        with open(path, "w") as out:
            json.dump(report, out)
        cases = plot_reports.load_report(path).cases
        self.assertEqual(report_reading.axis_roles(cases[0]), (("where",), ("how",)))
        self.assertEqual(report_reading.primary_metric(cases), ("wait_ms", "ms", False))
        # Only entry axes, no declaration: strategies are the series, nothing is a panel.
        # A hand-edited declaration costs its odd entries, never a traceback.
        odd = report_reading.Case("future/odd/how=x")
        odd.declaration = {"metric": {"counter": ["x"]},
                           "axes": [{"key": ["how"], "plot": "panel"}, "junk",
                                    {"key": "how", "role": "strategy"}]}
        self.assertEqual(report_reading.axis_roles(odd), ((), ("how",)))
        self.assertEqual(report_reading.primary_metric([odd]), ("real_time", "µs", False))
        bare = report_reading.Case("future/other/how=x/size=1")
        bare.roles = {"how": "strategy", "size": "workload"}
        self.assertEqual(report_reading.axis_roles(bare), ((), ("how",)))

    def test_an_old_report_reads_the_exported_roles(self):
        report = plot_reports.load_report(os.path.join(H200, "quick.json"))
        batch = next(c for c in report.cases if c.family == "h2d/batch")
        self.assertEqual(report_reading.axis_roles(batch), (("task",), ("pin",)))
        pin = [c for c in report.cases if c.family == "h2d/pin_cost" and c.values]
        self.assertEqual(report_reading.primary_metric(pin), ("pin_us", "us", False))


class PublishedH200Reports(unittest.TestCase):
    """The first real-GPU reports (results/2026-12-04_h200-pcie5): every figure they can fill
    is drawn, from the numbers they hold."""

    def test_quick_report_draws_every_gpu_figure(self):
        report = plot_reports.load_report(os.path.join(H200, "quick.json"))
        figures, notes = plot_reports.build_figures([report])
        self.assertEqual(notes, ["skipped multi_gpu_scaling: multi-GPU scaling needs cases on 2 "
                                 "or more GPU counts; these reports have 1 (multi-GPU families "
                                 "need 2+ GPUs)"])
        self.assertIn("vm (NVIDIA H200)", figures["batch_sweep"]._suptitle.get_text())
        train = figures["batch_sweep"].axes[0]
        self.assertEqual(len(bar_rows(train)), 6)  # 3 layouts x batch 1, 16
        widths = {round(bar.get_width(), 2) for bar in train.patches}
        self.assertIn(8.34, widths)  # tuple, pin=requested, batch=16: the silent no-pin
        ceiling = [line for line in train.get_lines() if "ceiling" in line.get_label()]
        self.assertEqual(ceiling[0].get_label(), "link ceiling: 58.4 GB/s")
        decode = figures["decode"].axes
        self.assertEqual([ax.get_xlabel() for ax in decode], ["samples/s"] * 2)
        self.assertIn(41094.7, {round(bar.get_width(), 1) for bar in decode[0].patches})
        staging = figures["staging_vs_pinned"].axes
        self.assertIn("pinned copy, same size: 55.0 GB/s",
                      staging[1].get_legend_handles_labels()[1])
        matplotlib.pyplot.close("all")

    def test_every_bar_of_a_panel_is_its_own_case(self):
        """A bar's label keeps every key that tells its case from the others in the panel."""
        report = plot_reports.load_report(os.path.join(H200, "quick.json"))
        figures, _ = plot_reports.build_figures([report])
        for name, fig in figures.items():
            for ax in fig.axes:
                rows = [row for row in bar_rows(ax) if row]
                self.assertEqual(len(rows), len(set(rows)), f"{name}: {ax.get_title()}: {rows}")
        train = [ax for ax in figures["pipeline_throughput"].axes
                 if ax.get_title().startswith("pipeline/train")][0]
        self.assertEqual(len(bar_rows(train)), 6)  # six pipeline/train cases in quick.json
        matplotlib.pyplot.close("all")

    def test_peer_figures_are_a_dashed_line_beside_ours(self):
        """nvbandwidth's recorded 64 MiB figures (nvbw64.log), put in the report as run --peers
        puts them, draw as a dashed line of their own in each direction's panel."""
        with open(os.path.join(H200, "quick.json")) as handle:
            doc = json.load(handle)
        mib64 = 64 << 20
        doc["h2dbench"]["peers"] = {"figures": [
            {"peer": "nvbandwidth", "test": "host_to_device_memcpy_ce", "bytes": mib64,
             "value": 55.42, "unit": "GB/s",
             "pairs_with": "h2d/memory/dir=h2d/kind=pinned/mode=async/bytes=64MiB"},
            {"peer": "nvbandwidth", "test": "device_to_host_memcpy_ce", "bytes": mib64,
             "value": 55.31, "unit": "GB/s",
             "pairs_with": "h2d/memory/dir=d2h/kind=pinned/mode=async/bytes=64MiB"},
            {"peer": "nvbandwidth", "test": "host_to_device_bidirectional_memcpy_ce",
             "bytes": mib64, "value": 49.31, "unit": "GB/s", "pairs_with": ""}]}
        report = report_reading.Report("quick+peers.json", doc)
        figure = plot_reports.build_figures([report])[0]["bandwidth_vs_size"]
        for ax, value in zip(figure.axes, (55.42, 55.31)):
            peers = [line for line in ax.get_lines() if line.get_label() == "nvbandwidth"]
            self.assertEqual(len(peers), 1, ax.get_title())
            self.assertEqual(peers[0].get_linestyle(), "--")
            self.assertEqual(list(peers[0].get_xdata()), [float(mib64)])
            self.assertEqual(list(peers[0].get_ydata()), [value])
        matplotlib.pyplot.close("all")

    def test_all_three_reports_render_to_files(self):
        with tempfile.TemporaryDirectory(prefix="h2d_plots_h200_") as out:
            for name in ("quick", "memory", "images"):
                result = run_script(os.path.join(H200, f"{name}.json"), "-o", out)
                self.assertEqual(result.returncode, 0, result.stderr)
                self.assertNotIn("Traceback", result.stderr)
            for figure in ("bandwidth_vs_size", "batch_sweep", "decode", "staging_vs_pinned"):
                self.assertGreater(os.path.getsize(os.path.join(out, f"{figure}.png")), 1000)


@unittest.skipIf(H2DBENCH is None and "--h2dbench" not in sys.argv, "needs --h2dbench")
class RealHostReports(unittest.TestCase):
    """The host-only suite, run for real on this machine, then plotted (host/decode, whose first
    use generates its tiles, is left out to keep two runs within the test's timeout)."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="h2d_plots_real_")
        cls.reports = []
        for name in ("first", "second"):
            path = os.path.join(cls.tmp.name, f"{name}.json")
            run = subprocess.run([H2DBENCH, "--preset", "quick", "--filter", "^host/(?!decode/)", "--out",
                                  path], capture_output=True, text=True, check=False)
            if run.returncode != 0:
                raise AssertionError(f"h2dbench failed ({run.returncode}):\n{run.stdout}\n"
                                     f"{run.stderr}")
            cls.reports.append(path)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_rendered_files_exist_and_are_not_empty(self):
        out = os.path.join(self.tmp.name, "figures")
        result = run_script(*self.reports, "-o", out)
        self.assertEqual(result.returncode, 0, result.stderr)
        for name in ("host_memcpy_threads", "host_first_touch"):
            for ext in ("png", "svg"):
                path = os.path.join(out, f"{name}.{ext}")
                self.assertTrue(os.path.isfile(path), result.stdout)
                self.assertGreater(os.path.getsize(path), 1000, path)
        with open(os.path.join(out, "host_first_touch.png"), "rb") as png:
            self.assertEqual(png.read(8), b"\x89PNG\r\n\x1a\n")
        with open(os.path.join(out, "host_memcpy_threads.svg")) as svg:
            self.assertIn("<svg", svg.read(2000))
        # GPU figures are skipped with a note on a machine without a GPU.
        self.assertIn("note: skipped bandwidth_vs_size", result.stdout)

    def test_series_match_the_cases_that_ran(self):
        reports = [plot_reports.load_report(path) for path in self.reports]
        with open(self.reports[0]) as handle:
            names = {b["run_name"] for b in json.load(handle)["benchmarks"]}
        threads = sorted({n.split("threads=")[1].split("/")[0] for n in names
                          if n.startswith("host/memcpy/")})
        figures, _ = plot_reports.build_figures(reports)
        memcpy = figures["host_memcpy_threads"]
        by_size = sorted(line.get_label() for line in memcpy.axes[0].get_lines())
        expected = sorted(f"threads={t} [{m}]" for t in threads for m in "AB")
        self.assertEqual(by_size, expected)
        touch = labels(figures["host_first_touch"])
        self.assertEqual(touch, sorted(f"dest={d} [{m}]" for d in ("fresh", "reused")
                                       for m in "AB"))
        for fig in figures.values():
            matplotlib.pyplot.close(fig)


class Timeline(unittest.TestCase):
    """plots/plot_timeline.py: one case of a --trace file as a picture, bad input one line."""

    TIMELINE = os.path.join(HERE, "..", "plots", "plot_timeline.py")
    CASE = "host/pipeline/loop=train/workers=2"

    def trace(self, folder):
        events = [
            {"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "h2dbench host"}},
            {"ph": "M", "name": "thread_name", "pid": 1, "tid": 7, "args": {"name": "h2dbench main"}},
            {"ph": "M", "name": "thread_name", "pid": 1, "tid": 8, "args": {"name": "worker 0"}},
            {"ph": "X", "cat": "case", "name": self.CASE, "ts": 1000, "dur": 9000, "pid": 1,
             "tid": 7},
            {"ph": "X", "cat": "setup", "name": "setup", "ts": 1100, "dur": 500, "pid": 1, "tid": 7},
            {"ph": "X", "cat": "collate", "name": "collate batch 0", "ts": 2000, "dur": 3000,
             "pid": 1, "tid": 8},
            {"ph": "X", "cat": "copy", "name": "copy batch 0", "ts": 5000, "dur": 1000, "pid": 1,
             "tid": 7},
        ]
        path = os.path.join(folder, "t.json")
        with open(path, "w") as handle:
            json.dump({"traceEvents": events}, handle)
        return path

    def run_timeline(self, *args):
        return subprocess.run([sys.executable, self.TIMELINE, *args], capture_output=True,
                              text=True, check=False)

    def test_a_case_is_drawn_a_row_a_thread(self):
        with tempfile.TemporaryDirectory(prefix="h2d_timeline_") as folder:
            out = os.path.join(folder, "case.png")
            result = self.run_timeline(self.trace(folder), "--case", self.CASE, "-o", out,
                                       "--from", "0.5", "--to", "6")
            self.assertEqual(result.returncode, 0, result.stderr)
            with open(out, "rb") as png:
                self.assertEqual(png.read(8), b"\x89PNG\r\n\x1a\n")

    def test_bad_input_is_one_line_and_exit_2(self):
        with tempfile.TemporaryDirectory(prefix="h2d_timeline_") as folder:
            trace = self.trace(folder)
            missing = self.run_timeline(trace, "--case", "no/such/case")
            self.assertEqual(missing.returncode, 2)
            self.assertIn("--case 'no/such/case' is not in the trace; its cases: " + self.CASE,
                          missing.stderr)
            garbage = os.path.join(folder, "garbage.json")
            with open(garbage, "w") as handle:
                handle.write("{not json")
            broken = self.run_timeline(garbage, "--case", self.CASE)
            self.assertEqual(broken.returncode, 2)
            self.assertEqual(len(broken.stderr.strip().split("\n")), 1, broken.stderr)
            past = self.run_timeline(trace, "--case", self.CASE, "--from", "50")
            self.assertEqual(past.returncode, 2)
            self.assertIn("past the window's end", past.stderr)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--h2dbench")
    known, rest = parser.parse_known_args()
    H2DBENCH = known.h2dbench
    unittest.main(argv=[sys.argv[0], *rest], verbosity=2)
