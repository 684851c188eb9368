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
# The limits a report must stay within: the same as harness/report/report_file.hpp (README
# "Input limits"), far beyond any real report.
MAX_REPORT_BYTES = 64 << 20
MAX_DEPTH = 64
MAX_STRING_CHARS = 64 << 10
MAX_ENTRIES = 250000
MAX_NAME_CHARS = 1024
MAX_GPU_KINDS = 8


class ReportError(Exception):
    """Bad input: a missing, empty, truncated or foreign report, or nothing to draw."""




_SIZE = re.compile(r"^(\d+(?:\.\d+)?)(B|KiB|MiB|GiB|TiB)?$")
_UNITS = {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40, None: 1}
# GB's bookkeeping numbers are not measurements.
_BOOKKEEPING = {"family_index", "per_family_instance_index", "repetition_index", "repetitions",
                "iterations"}
_UNIT_OF = {"GB_per_s": "GB/s (decimal)", "samples_per_s": "samples/s", "tiles_per_s": "tiles/s",
            "overlap_pct": "% of serial time saved", "real_time": "µs"}
# What each family's cases mean (axes, roles, plot places, metric) for reports written before they
# carried it: `h2dbench declarations` writes this file from harness/core/family_declarations.cpp,
# and a test (plots_test.py) keeps the two equal. A report's own h2dbench.declarations win.
DECLARED_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "declared_families.json")
_exported = None


def exported_declarations():
    """family -> declaration, from DECLARED_FILE (read once)."""
    global _exported
    if _exported is None:
        with open(DECLARED_FILE, encoding="utf-8") as f:
            _exported = _declarations(json.load(f))
    return _exported


def _declarations(items):
    """family -> declaration for the well-formed items of a declarations list."""
    found = {}
    for item in items if isinstance(items, list) else []:
        if (isinstance(item, dict) and isinstance(item.get("family"), str)
                and isinstance(item.get("metric"), dict) and isinstance(item.get("axes"), list)):
            found[item["family"]] = item
    return found


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
        self.declaration = None  # its family's declaration (report's own, else exported)
        self.roles = {}  # key -> "workload" | "strategy", from the entry's own `axes`

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
            value = float(text)
        except ValueError:
            value = parse_size(text)
        # "gpus=nan", "bytes=1e400" in a hand-edited name: not a position on an axis.
        return value if value is not None and math.isfinite(value) else None


def _time_scale(unit):
    if not isinstance(unit, str):
        return 1.0  # as harness/report/report_cases.cpp: GB's default, microseconds
    return {"ns": 1e-3, "ms": 1e3, "s": 1e6}.get(unit, 1.0)


def _read_bounded(path):
    """The file's bytes within MAX_REPORT_BYTES; its type and size are checked before reading."""
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer before fstat can refuse it.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        raise ReportError(f"report '{path}': no such file") from None
    except OSError as error:
        raise ReportError(f"report '{path}': cannot open: {error.strerror}") from None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise ReportError(f"report '{path}' is a folder; give a file")
        if not stat.S_ISREG(info.st_mode):
            raise ReportError(f"report '{path}' is a device, pipe or socket, not a file; save it "
                              "to a file first")
        if info.st_size > MAX_REPORT_BYTES:
            raise ReportError(_too_large(path))
        try:
            data = handle.read(MAX_REPORT_BYTES + 1)
        except OSError as error:
            raise ReportError(f"report '{path}': cannot read: {error.strerror}") from None
    if len(data) > MAX_REPORT_BYTES:
        raise ReportError(_too_large(path))
    return data


def _too_large(path):
    return f"report '{path}' is larger than {MAX_REPORT_BYTES >> 20} MiB, the most h2dbench reads"


class _LimitError(Exception):
    """A report beyond LIMITS while parsing (the message says which)."""


def _bounded_float(text):
    value = float(text)
    if not math.isfinite(value):
        raise _LimitError(f"number {text[:64]} is beyond the range of a double (about 1.8e308)")
    return value


def _bounded_int(text):
    if len(text) > 309:  # beyond a double's range, and Python's int() refuses 4300+ digits
        raise _LimitError(f"number {text[:64]}... is beyond the range of a double (about 1.8e308)")
    return int(text)


def _refuse_constant(token):
    raise _LimitError(f"{token} is not a JSON number")


def _check_shape(doc):
    """Depth and string lengths, walked with an explicit stack (no recursion over the input)."""
    stack = [(doc, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            if len(value) > MAX_STRING_CHARS:
                raise _LimitError(f"a string of {len(value)} characters (at most "
                                  f"{MAX_STRING_CHARS})")
            continue
        if isinstance(value, dict):
            children = list(value.keys()) + list(value.values())
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth > MAX_DEPTH:
            raise _LimitError(f"nested deeper than {MAX_DEPTH} levels of arrays and objects")
        stack.extend((child, depth + 1) for child in children)


def _check_entries(path, benchmarks):
    if len(benchmarks) > MAX_ENTRIES:
        raise ReportError(f"report '{path}': 'benchmarks' has {len(benchmarks)} entries; a report "
                          f"has at most {MAX_ENTRIES}")
    for index, entry in enumerate(benchmarks):
        if not isinstance(entry, dict):
            continue
        for key in ("name", "run_name"):
            name = entry.get(key)
            if isinstance(name, str) and len(name) > MAX_NAME_CHARS:
                raise ReportError(f"report '{path}': benchmarks[{index}].{key} is {len(name)} "
                                  f"characters; a case name has at most {MAX_NAME_CHARS}")


def load_report(path):
    """Reads and checks one report; raises ReportError naming the file, the problem and, for a
    limit, where it is and the limit."""
    text = _read_bounded(path).decode("utf-8", errors="replace")
    if not text.strip():
        raise ReportError(f"report '{path}': the file is empty")
    try:
        doc = json.loads(text, parse_float=_bounded_float, parse_int=_bounded_int,
                         parse_constant=_refuse_constant)
        _check_shape(doc)
    except json.JSONDecodeError as error:
        raise ReportError(f"report '{path}': not valid JSON, perhaps truncated ({error})") from None
    except (_LimitError, RecursionError) as error:
        reason = str(error) if isinstance(error, _LimitError) else \
            f"nested deeper than {MAX_DEPTH} levels of arrays and objects"
        raise ReportError(f"report '{path}': {reason}; a report stays within {MAX_DEPTH} levels, "
                          f"strings of {MAX_STRING_CHARS >> 10} KiB and numbers a double can "
                          "hold") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("benchmarks"), list) \
            or "context" not in doc:
        raise ReportError(
            f"report '{path}': not a Google Benchmark JSON report (no 'context' and 'benchmarks')")
    _check_entries(path, doc["benchmarks"])
    if "h2dbench" not in doc:
        return Report(path, doc)  # plain Google Benchmark: times and counters, machine unknown
    if not isinstance(doc["h2dbench"], dict):
        raise ReportError(f"report '{path}': its 'h2dbench' entry is not an object: not a report "
                          "h2dbench wrote")
    schema = doc["h2dbench"].get("schema")
    if schema != REPORT_SCHEMA or isinstance(schema, bool):
        raise ReportError(f"report '{path}': h2dbench schema {json.dumps(schema)[:64]}; this "
                          f"script reads schema {REPORT_SCHEMA}")
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
        self.plain = "h2dbench" not in doc  # a plain Google Benchmark report
        self.context = _mapping(doc.get("h2dbench"))
        self.declarations = dict(exported_declarations())
        self.declarations.update(_declarations(self.context.get("declarations")))
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
            case.declaration = self.declarations.get(case.family)
            for role in ("workload", "strategy"):
                for key in _mapping(_mapping(entry.get("axes")).get(role)):
                    case.roles[key] = role
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
        hostname = str(hostname)[:64]
        if self.plain:
            return f"{hostname} (machine unknown: not an h2dbench report)"
        gpus = _sequence(self.context.get("gpus"))
        names = [str(g.get("name", "GPU"))[:64] for g in gpus if isinstance(g, dict)]
        kinds = list(OrderedDict.fromkeys(names))
        if len(kinds) == 1:
            gpu = f"{len(names)}x {kinds[0]}" if len(names) > 1 else kinds[0]
        elif kinds:
            gpu = ", ".join(kinds[:MAX_GPU_KINDS])  # a title names a few kinds, not 100k
            if len(kinds) > MAX_GPU_KINDS:
                gpu += f" and {len(kinds) - MAX_GPU_KINDS} more kinds"
        else:
            gpu = "no GPU"
        return f"{hostname} ({gpu})"

    def family_cases(self, predicate):
        return [c for c in self.cases if c.values and predicate(c)]

    def families(self):
        return list(OrderedDict.fromkeys(c.family for c in self.cases))

    def peer_points(self):
        """The copy figures of the peer tools in h2dbench.peers (nvbandwidth, PyTorch), as
        {(peer, direction): [(bytes, GB/s), ...]}, each direction read from the h2dbench case the
        figure pairs with; figures that pair with none (a bidirectional test) are left out."""
        points = OrderedDict()
        for figure in _sequence(_mapping(self.context.get("peers")).get("figures")):
            if not isinstance(figure, dict) or figure.get("unit") != "GB/s":
                continue
            size, value = figure.get("bytes"), figure.get("value")
            pairs_with = figure.get("pairs_with")
            if not isinstance(pairs_with, str) or not all(
                    isinstance(v, (int, float)) and math.isfinite(v) and v > 0
                    for v in (size, value)):
                continue
            direction = parse_name(pairs_with)[1].get("dir")
            if direction:
                key = (str(figure.get("peer", "peer"))[:32], direction)
                points.setdefault(key, []).append((float(size), float(value)))
        return points

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
    """(metric, unit, higher_is_better) for a list of cases of one family: the declared metric
    when the cases carry it, else GB_per_s, samples_per_s, real_time."""
    declaration = cases[0].declaration if cases else None
    present = {m for c in cases for m in c.values}
    if declaration:
        metric = _mapping(declaration.get("metric"))
        counter = metric.get("counter")
        if isinstance(counter, str) and counter in present:
            unit = _UNIT_OF.get(counter) or str(metric.get("unit", counter))
            return counter, unit, metric.get("better", "higher") != "lower"
    for metric in ("GB_per_s", "samples_per_s"):
        if metric in present:
            return metric, unit_of(metric), True
    return "real_time", unit_of("real_time"), False


def axis_roles(case):
    """(panel keys, series keys) of a case's family: where its declaration places each axis
    (an axis without a place: a strategy is a series); from the entry's own `axes` alone, each
    strategy is a series; none for a family nothing declares."""
    if case.declaration:
        places = {"panel": [], "series": []}
        for axis in map(_mapping, _sequence(case.declaration.get("axes"))):
            key = axis.get("key")
            place = axis.get("plot") or ("series" if axis.get("role") == "strategy" else "group")
            if isinstance(key, str) and place in places:  # a hand-edited key is no axis
                places[place].append(key)
        return tuple(places["panel"]), tuple(places["series"])
    return (), tuple(k for k, role in case.roles.items() if role == "strategy")


def unit_of(metric):
    return _UNIT_OF.get(metric, metric)
