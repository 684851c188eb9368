"""Reading h2dbench reports for the figures: one checked load per file, cases with their
repetitions gathered, the primary metric of a family, sizes in names.

Reports are h2dbench JSON (Google Benchmark format plus an "h2dbench" context). Case names read
family/key=value/...; numeric parameters are also top-level counters (bytes, threads, ...).
"""

import json
import math
import os
import re
import stat
import statistics
from collections import OrderedDict

REPORT_SCHEMA = 1  # harness/report/report_file.hpp kReportSchema
MAX_REPORT_CHARS = 1 << 30  # far beyond any real report (and /dev/zero never ends)


class ReportError(Exception):
    """Bad input: a missing, empty, truncated or foreign report, or nothing to draw."""




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
